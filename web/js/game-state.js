// The game page's state: the server's snapshot, the events after it, and what the viewer is
// doing (a move waiting for confirmation, the point under the pointer, the move shown while
// stepping through a finished game, the score estimate). `reduce` is pure: plain data in, plain
// data out, no DOM, no clock, no globals. The server stays the authority: an event is applied
// only when it is the next one after the snapshot's `seq` (older ones are already in it; after
// a gap the page reads the snapshot again), and the page still reads the snapshot after each
// burst of events, which replaces what the events built here.

import { gridFromRows, gridWith, parseVertex, play } from './go.js';

const SIDES = ['black', 'white'];
const other = (side) => (side === 'black' ? 'white' : 'black');
const both = (v) => ({ black: v, white: v });

/**
 * The page's first state: the snapshot, the viewer's side (`me`: 'black', 'white' or null), when
 * it was read (`at`: the page's clock in ms, for the running clock) and whether moves wait for a
 * confirmation.
 */
export function initial(snapshot, me = null, at = 0, confirmMoves = false) {
  return {
    game: snapshot,
    me,
    openedAt: snapshot.seq, // events up to here are history the socket replays
    fetchedAt: at,
    chat: [], // {seq, user, text}, in seq order
    review: null, // the move shown while stepping through a finished game
    pending: null, // a move waiting for confirmation
    hover: null,
    estimate: null, // {seq, ...the server's estimate}, while the position is the one it was made for
    hint: null, // {seq, move, left}: the engine's move in a learner's first game, for this position
    hintsLeft: HINTS, // hints the server still gives in this game (it counts; this shows)
    confirmMoves,
    toasts: [], // what the last message has to tell the viewer: [{key, vars}]
  };
}

/** Hints a learner gets in their first game (the server's `MOST_HINTS`). */
export const HINTS = 3;

/** The bot whose 9x9 games give hints: the weakest, the one the lessons send a learner to. */
export const HINT_BOT = 'tengen-bot';

/** Whether the viewer may ask for a hint: a player of a 9x9 game against the weakest bot. */
export function hintsOffered(s) {
  if (!s.me || s.game.terms.size !== 9) return false;
  const other = s.game[s.me === 'black' ? 'white' : 'black'];
  return !!other.bot && other.username === HINT_BOT;
}

/** The viewer's side of `snapshot` for `username` (null for a spectator). */
export function sideOf(snapshot, username) {
  if (!username) return null;
  return SIDES.find((c) => snapshot[c].username === username) || null;
}

/** Whether it is the viewer's move (and not while stepping through the moves). */
export function myTurn(s) {
  return !!s.me && s.game.phase === 'play' && s.game.to_move === s.me && s.review === null;
}

/** The stones the engine was unsure of that are not marked dead (yet). */
export function openUnsure(game) {
  const dead = new Set(game.dead || []);
  return (game.unsure || []).filter((v) => !dead.has(v));
}

/**
 * The next state after `m`: a socket message for this game (`event`, `closed`), a fresh
 * `snapshot` ({state, at}), or the viewer's own doing (`hover`, `pending`, `review`, `step`,
 * `estimate`, `confirm_moves`).
 */
export function reduce(s, m) {
  const next = step({ ...s, toasts: [] }, m);
  return settle(next);
}

function step(s, m) {
  switch (m.type) {
    case 'snapshot':
      return { ...s, game: m.state, fetchedAt: m.at ?? s.fetchedAt, pending: m.state.phase === 'play' ? s.pending : null };
    case 'event':
      return onEvent(s, m);
    case 'closed':
      // The socket closed for good: a viewer no longer logged in keeps no side.
      return { ...s, me: m.loggedIn ? s.me : null, pending: null };
    case 'hover':
      return { ...s, hover: m.point };
    case 'pending':
      return { ...s, pending: m.point };
    case 'confirm_moves':
      return { ...s, confirmMoves: !!m.on, pending: null };
    case 'review': {
      if (s.game.phase !== 'finished') return s;
      return { ...s, review: Math.max(0, Math.min(s.game.moves.length, m.at)) };
    }
    case 'step': {
      if (s.game.phase !== 'finished') return s;
      const at = s.review === null ? s.game.moves.length : s.review;
      return step(s, { type: 'review', at: at + m.by });
    }
    case 'estimate':
      return { ...s, estimate: { seq: s.game.moves.length, ...m.estimate } };
    case 'hint':
      return { ...s, hint: { seq: s.game.moves.length, ...m.hint }, hintsLeft: m.hint.left };
    case 'no_hints':
      return { ...s, hintsLeft: 0 };
    default:
      return s;
  }
}

/** What holds whatever the message: an estimate or a hint lasts while its position is on the board. */
function settle(s) {
  const g = s.game;
  if (s.hint && (s.review !== null || g.phase !== 'play' || s.hint.seq !== g.moves.length)) s = { ...s, hint: null };
  if (s.estimate && (s.review !== null || g.phase !== 'play' || s.estimate.seq !== g.moves.length)) return { ...s, estimate: null };
  return s;
}

function onEvent(s, m) {
  const e = m.event;
  let out = s;
  if (e.type === 'chat' && e.text && !s.chat.some((l) => l.seq === m.seq)) {
    const chat = [...s.chat, { seq: m.seq, user: e.user, text: e.text }].sort((a, b) => a.seq - b.seq);
    out = { ...out, chat };
  }
  if (e.type === 'chat_hidden') out = { ...out, chat: out.chat.filter((l) => l.seq !== Number(e.seq)) };
  out = { ...out, toasts: news(s, m) };
  // Only the next event changes the game: an older one is in the snapshot already, and after a
  // gap the snapshot read next brings what was missed.
  if (m.seq !== s.game.seq + 1) return out;
  const game = apply(s.game, e, m);
  return { ...out, game, pending: game.phase === 'play' ? out.pending : null };
}

/** The toasts an event is news for: not history replayed, not after the end. */
function news(s, m) {
  const e = m.event;
  const g = s.game;
  if (!(m.seq > s.openedAt && g.phase !== 'finished')) return [];
  const name = (c) => g[c] && g[c].username;
  if (e.type === 'takeback_requested' && s.me && e.color !== s.me) return [{ key: 'game.takeback_asked', vars: { name: name(e.color) } }];
  if (e.type === 'disputed') return [{ key: `count.disputed_${e.verdict}`, vars: { name: name(e.color), n: (e.points || []).length } }];
  if (e.type === 'takeback_answered' && s.me && e.color !== s.me) return [{ key: e.accepted ? 'game.takeback_allowed' : 'game.takeback_refused', vars: {} }];
  return [];
}

/** The game after event `e` (the next one after its `seq`), as far as the client can tell. */
function apply(g, e, m) {
  const at = { ...g, seq: m.seq };
  switch (e.type) {
    case 'move':
      return withClocks(afterPlay(moved(at, e.color, e.point)), m);
    case 'pass':
      return withClocks(afterPlay({ ...at, moves: [...g.moves, { color: e.color, point: 'pass' }], to_move: other(e.color) }), m);
    case 'resign':
      return finish(at, `${e.color === 'black' ? 'W' : 'B'}+R`, 'resign');
    case 'finished':
      return finish(at, e.result, e.reason);
    case 'takeback_requested':
      return { ...at, takeback_requested_by: e.color };
    case 'takeback_answered':
      return e.accepted ? takenBack({ ...at, takeback_requested_by: null }, e.plies || 1) : { ...at, takeback_requested_by: null };
    case 'scoring_requested':
      return { ...at, scoring_requested: { ...g.scoring_requested, [e.color]: true } };
    case 'scoring_started':
      return { ...at, phase: 'scoring', dead: e.dead || [], unsure: e.unsure || [], accepted: both(false), scoring_requested: both(false) };
    case 'dead_toggled':
      return { ...at, dead: toggled(g.dead || [], e.points || []), accepted: both(false) };
    case 'score_accepted':
      return { ...at, accepted: { ...g.accepted, [e.color]: true } };
    case 'resumed':
      return backToPlay(at);
    case 'disputed':
      return disputed(at, e);
    case 'disconnected':
      return { ...at, presence: { ...g.presence, [e.color]: { connected: false, until: e.until, arrived: true } } };
    case 'reconnected':
      return { ...at, presence: { ...g.presence, [e.color]: { connected: true, until: null, arrived: true } } };
    case 'vacation': {
      if (!g.clocks) return at;
      const until = e.until && e.until > (m.at || 0) ? e.until : null;
      return { ...at, clocks: { ...g.clocks, vacation: { ...(g.clocks.vacation || {}), [e.color]: until } } };
    }
    default:
      return at; // chat and what the page does not draw
  }
}

/** A stone played: on the board with its captures (a suicide's stones go to the partner). */
function moved(g, color, point) {
  const size = g.terms.size;
  const p = parseVertex(size, point);
  const moves = [...g.moves, { color, point }];
  if (!p) return { ...g, moves, to_move: other(color) };
  const before = gridFromRows(g.board);
  const after = play(before, size, color === 'black' ? 'b' : 'w', p.x, p.y);
  const lost = (c) => count(before, c) + (c === color[0] ? 1 : 0) - count(after, c);
  const mine = color === 'black' ? 'b' : 'w';
  const theirs = mine === 'b' ? 'w' : 'b';
  const captures = { ...g.captures };
  captures[color] += lost(theirs);
  captures[other(color)] += lost(mine);
  return { ...g, board: rowsFromGrid(after), moves, captures, to_move: other(color), ko: null };
}

/** A move or a pass withdraws the requests to count and a take-back request. */
function afterPlay(g) {
  return { ...g, scoring_requested: both(false), takeback_requested_by: null };
}

function withClocks(g, m) {
  return m.clocks ? { ...g, clocks: m.clocks } : g;
}

function finish(g, result, reason) {
  const clocks = g.clocks ? { ...g.clocks, running: null } : g.clocks;
  return { ...g, phase: 'finished', result, end_reason: reason, takeback_requested_by: null, clocks };
}

function backToPlay(g) {
  return { ...g, phase: 'play', dead: [], unsure: [], score: null, accepted: both(false) };
}

/** A dispute's verdict: `dead` marks the stones, `play` resumes with their owner to move. */
function disputed(g, e) {
  if (e.verdict === 'dead') return { ...g, dead: [...new Set([...(g.dead || []), ...(e.points || [])])], accepted: both(false) };
  if (e.verdict === 'play') return { ...backToPlay(g), to_move: other(e.color) };
  return g;
}

/** The last `plies` moves taken back: the board replayed without them. */
function takenBack(g, plies) {
  const size = g.terms.size;
  const moves = g.moves.slice(0, Math.max(0, g.moves.length - plies));
  const undone = g.moves[moves.length];
  let grid = gridWith(size, g.handicap_stones || []);
  const captures = both(0);
  for (const mv of moves) {
    const p = parseVertex(size, mv.point);
    if (!p) continue;
    const c = mv.color === 'black' ? 'b' : 'w';
    const o = c === 'b' ? 'w' : 'b';
    const next = play(grid, size, c, p.x, p.y);
    captures[mv.color] += count(grid, o) - count(next, o);
    captures[other(mv.color)] += count(grid, c) + 1 - count(next, c);
    grid = next;
  }
  return { ...g, moves, board: rowsFromGrid(grid), captures, to_move: undone ? undone.color : g.to_move, ko: null };
}

function toggled(dead, points) {
  const set = new Set(dead);
  for (const p of points) {
    if (set.has(p)) set.delete(p);
    else set.add(p);
  }
  return [...set];
}

function count(grid, c) {
  let n = 0;
  for (const row of grid) for (const v of row) if (v === c) n++;
  return n;
}

function rowsFromGrid(grid) {
  return grid.map((r) => r.map((v) => (v === 'b' ? 'X' : v === 'w' ? 'O' : '.')).join(''));
}
