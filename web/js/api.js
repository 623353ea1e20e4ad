// HTTP calls to the server. Every failure becomes an ApiError with the server's code and a
// readable message, so that pages can show it.

import { t, errorMessage } from './i18n.js';

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

export async function api(method, path, body) {
  let res;
  try {
    res = await fetch(path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError('network', errorMessage('network', 'network'), 0);
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!res.ok) {
    const e = data && data.error;
    const code = e ? e.code : `http_${res.status}`;
    throw new ApiError(code, errorMessage(code, e ? e.message : t('error.http', { status: res.status })), res.status);
  }
  return data;
}

export const me = () => api('GET', '/api/me');
export const session = () => api('GET', '/api/session');
export const register = (username, password, rank) => api('POST', '/api/accounts/register', { username, password, rank });
export const login = (username, password) => api('POST', '/api/accounts/login', { username, password });
export const guest = () => api('POST', '/api/accounts/guest');
export const logout = () => api('POST', '/api/accounts/logout');
export const rooms = () => api('GET', '/api/rooms');
export const createRoom = (terms) => api('POST', '/api/rooms', terms);
export const joinRoom = (id, body) => api('POST', `/api/rooms/${id}/join`, body);
export const cancelRoom = (id) => api('DELETE', `/api/rooms/${id}`);
export const liveGames = () => api('GET', '/api/games?status=live');
export const game = (id) => api('GET', `/api/games/${id}`);
export const estimate = (id) => api('GET', `/api/games/${id}/estimate`);
export const hint = (id) => api('GET', `/api/games/${id}/hint`);
export const online = () => api('GET', '/api/online');
export const bots = () => api('GET', '/api/bots');
export const playBot = (name, body) => api('POST', `/api/bots/${encodeURIComponent(name)}/play`, body);
export const user = (name) => api('GET', `/api/users/${encodeURIComponent(name)}`);
export const userGames = (name) => api('GET', `/api/users/${encodeURIComponent(name)}/games`);
export const userRatings = (name) => api('GET', `/api/users/${encodeURIComponent(name)}/ratings`);
export const userRecord = (name) => api('GET', `/api/users/${encodeURIComponent(name)}/record`);
export const turns = () => api('GET', '/api/me/turns');
export const vacation = (days) => api('POST', '/api/me/vacation', { days });
export const endVacation = () => api('DELETE', '/api/me/vacation');
export const matchStatus = () => api('GET', '/api/match');
export const requestMatch = (body) => api('POST', '/api/match', body);
export const cancelMatch = () => api('DELETE', '/api/match');
export const review = (id, after) => api('GET', `/api/reviews/${id}${after != null ? `?after=${after}` : ''}`);
export const newReview = (body) => api('POST', '/api/reviews', body);
export const reviewEdit = (id, edit) => api('POST', `/api/reviews/${id}/edits`, edit);
export const reviewAnalyse = (id, visits) => api('POST', `/api/reviews/${id}/analysis`, visits ? { visits } : {});
export const reviewChat = (id, text) => api('POST', `/api/reviews/${id}/chat`, { text });
export const tournaments = (status) => api('GET', `/api/tournaments${status ? `?status=${status}` : ''}`);
export const tournament = (id) => api('GET', `/api/tournaments/${id}`);
export const createTournament = (terms) => api('POST', '/api/tournaments', terms);
export const registerTournament = (id) => api('POST', `/api/tournaments/${id}/register`);
export const withdrawTournament = (id) => api('POST', `/api/tournaments/${id}/withdraw`);
export const startTournament = (id) => api('POST', `/api/tournaments/${id}/start`);
export const correctResult = (id, body) => api('POST', `/api/tournaments/${id}/results`, body);
export const challenge = (id, opponent) => api('POST', `/api/tournaments/${id}/challenge`, { opponent });
export const finishLadder = (id) => api('POST', `/api/tournaments/${id}/finish`);
export const report = (body) => api('POST', '/api/reports', body);
export const myModeration = () => api('GET', '/api/me/moderation');
export const modReports = (all) => api('GET', `/api/moderation/reports${all ? '?all=true' : ''}`);
export const modResolve = (id, note) => api('POST', `/api/moderation/reports/${id}/resolve`, { note });
export const modAct = (body) => api('POST', '/api/moderation/actions', body);
export const modAnnul = (game, reason) => api('POST', `/api/moderation/games/${game}/annul`, { reason });
export const modHideChat = (game, seq, reason) => api('POST', `/api/moderation/games/${game}/chat/${seq}/hide`, { reason });
export const modLog = () => api('GET', '/api/moderation/log');
export const changePassword = (current, next) => api('POST', '/api/me/password', { current, new: next });
export const deleteAccount = (password) => api('DELETE', '/api/me', { password });
export const sessions = () => api('GET', '/api/me/sessions');
export const endSession = (id) => api('DELETE', `/api/me/sessions/${encodeURIComponent(id)}`);
export const endAllSessions = () => api('DELETE', '/api/me/sessions');
export const blocks = () => api('GET', '/api/me/blocks');
export const block = (user) => api('POST', '/api/me/blocks', { user });
export const unblock = (user) => api('DELETE', `/api/me/blocks/${encodeURIComponent(user)}`);
export const friends = () => api('GET', '/api/me/friends');
export const addFriend = (name) => api('POST', '/api/me/friends', { name });
export const removeFriend = (name) => api('DELETE', `/api/me/friends/${encodeURIComponent(name)}`);
export const conversations = () => api('GET', '/api/messages');
export const thread = (name) => api('GET', `/api/messages/${encodeURIComponent(name)}`);
export const sendMessage = (to, text) => api('POST', '/api/messages', { to, text });
export const lessons = () => api('GET', '/api/learn/lessons');
export const lesson = (id) => api('GET', `/api/learn/lessons/${encodeURIComponent(id)}`);
export const tryStep = (id, step, body) => api('POST', `/api/learn/lessons/${encodeURIComponent(id)}/steps/${step}/try`, body);
export const mergeLearning = (body) => api('POST', '/api/me/learning', body);
export const puzzleSummary = () => api('GET', '/api/learn/puzzles');
export const nextPuzzle = ({ rating, seen, kind, turn }) => {
  const q = new URLSearchParams();
  if (rating != null) q.set('rating', String(rating));
  if (seen) q.set('seen', seen);
  if (kind) q.set('kind', kind);
  if (turn) q.set('turn', String(turn));
  return api('GET', `/api/learn/puzzles/next?${q}`);
};
export const dailyPuzzle = () => api('GET', '/api/learn/puzzles/daily');
export const puzzle = (id) => api('GET', `/api/learn/puzzles/${encodeURIComponent(id)}`);
export const tryPuzzle = (id, body) => api('POST', `/api/learn/puzzles/${encodeURIComponent(id)}/try`, body);
export const firstCapture = (body) => api('POST', '/api/learn/first-capture', body);
export const rules = () => api('GET', '/api/rules');
