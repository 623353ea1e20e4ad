// The one WebSocket of the page. It reconnects by itself after a dropped connection and watches
// every game again from the last event it saw, so a page resumes where it was without reloading.
// Errors carry the server's stable code; the player reads the catalogue's message for it.

import { t, errorMessage } from './i18n.js';

export class Socket {
  constructor({ onStatus, onError, onNotice }) {
    this.onStatus = onStatus;
    this.onError = onError;
    this.onNotice = onNotice || (() => {}); // a moderator's action on this account
    this.nextId = 1;
    this.pending = new Map(); // request id -> {resolve, reject}
    this.games = new Map(); // game id -> {handler, seq}
    this.listeners = new Set(); // handlers of messages about no game (quick match's `matched`)
    this.tournaments = new Map(); // tournament id -> handler of its `tournament` messages
    this.messageListeners = new Set(); // handlers of `message`, `your_turn`, `lobby_chat` and an unasked `lobby`
    this.delay = 500;
    this.closed = false;
    this.connect();
  }

  connect() {
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    this.ws = new WebSocket(`${proto}://${location.host}/api/ws`);
    this.ws.onopen = () => {
      this.delay = 500;
      this.onStatus('online');
      for (const [game, g] of this.games) this.sendWatch(game, g);
      for (const id of this.tournaments.keys()) this.sendTournament('watch_tournament', id);
    };
    this.ws.onmessage = (e) => this.dispatch(JSON.parse(e.data));
    this.ws.onclose = (e) => {
      for (const p of this.pending.values()) p.reject(Object.assign(new Error(t('error.connection_dropped')), { code: 'connection_dropped' }));
      this.pending.clear();
      // Banned (4003): the session is gone, coming back would only be refused.
      if (e.code === 4003) this.closed = true;
      if (this.closed) {
        // No more events: each page watching a game reads it once more over HTTP (a ban's
        // resignation may have ended it just before the socket closed, its event unsent).
        for (const [game, g] of this.games) g.handler({ type: 'closed', game });
        return;
      }
      this.onStatus('reconnecting');
      setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    };
  }

  close() {
    this.closed = true;
    this.ws.close();
  }

  dispatch(m) {
    if (m.ref != null && this.pending.has(m.ref)) {
      const p = this.pending.get(m.ref);
      this.pending.delete(m.ref);
      if (m.type === 'error') p.reject(Object.assign(new Error(errorMessage(m.code, m.message)), { code: m.code }));
      else p.resolve(m);
    } else if (m.type === 'error' && !(m.game != null && this.games.has(m.game))) {
      // (An error about a watched game, a failed watch, is handled below.)
      this.onError(errorMessage(m.code, m.message));
    } else if (m.type === 'matched') {
      for (const l of this.listeners) l(m);
    } else if (m.type === 'tournament' && m.tournament && this.tournaments.has(m.tournament.id)) {
      this.tournaments.get(m.tournament.id)(m.tournament);
    } else if (m.type === 'moderation') {
      this.onNotice(m);
    } else if (m.type === 'message' || m.type === 'your_turn' || m.type === 'lobby_chat' || m.type === 'lobby') {
      // (`lobby` unasked: the connection fell behind the lobby's lines, which come afresh.)
      for (const l of this.messageListeners) l(m);
    }
    if (m.game != null && this.games.has(m.game)) {
      const g = this.games.get(m.game);
      if (m.type === 'event') {
        if (g.seq != null && m.seq <= g.seq) return; // already seen
        // A gap: the board would silently skip a move. Watch again from the last one seen.
        if (g.seq != null && m.seq > g.seq + 1) {
          this.sendWatch(m.game, g);
          return;
        }
        g.seq = m.seq;
      }
      if (m.type === 'resync') {
        this.sendWatch(m.game, g);
        return;
      }
      // The watch failed (in a cluster, the game is still between owners): the board is
      // behind, so say so and watch again in a second, as the protocol asks.
      if (m.type === 'error' && m.code === 'game_unavailable') {
        this.onStatus('reconnecting');
        clearTimeout(g.retry);
        g.retry = setTimeout(() => {
          if (this.games.get(m.game) === g) this.sendWatch(m.game, g);
        }, 1000);
        return;
      }
      if (m.type === 'ack' || m.type === 'snapshot') this.onStatus('online');
      g.handler(m);
    }
  }

  request(msg) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.ws.readyState !== WebSocket.OPEN) {
        reject(Object.assign(new Error(t('error.not_connected')), { code: 'not_connected' }));
        return;
      }
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ ...msg, id }));
    });
  }

  sendWatch(game, g) {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    // From the start the first time (the events carry the chat), then from the last one seen.
    this.ws.send(JSON.stringify({ type: 'watch', game, since: g.seq ?? 0 }));
  }

  watch(game, handler) {
    const g = { handler, seq: null };
    this.games.set(game, g);
    this.sendWatch(game, g);
  }

  /** Calls `handler` with every `message`, `your_turn`, `lobby_chat` and unasked `lobby`; returns the function that stops it. */
  onPrivateMessage(handler) {
    this.messageListeners.add(handler);
    return () => this.messageListeners.delete(handler);
  }

  /** Calls `handler` with every `matched` message; returns the function that stops it. */
  onMatched(handler) {
    this.listeners.add(handler);
    return () => this.listeners.delete(handler);
  }

  sendTournament(type, tournament) {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type, tournament }));
  }

  /** Calls `handler` with tournament `id` as it is now and after each change. */
  watchTournament(id, handler) {
    this.tournaments.set(id, handler);
    this.sendTournament('watch_tournament', id);
  }

  unwatchTournament(id) {
    if (this.tournaments.delete(id)) this.sendTournament('unwatch_tournament', id);
  }

  unwatch(game) {
    if (this.games.delete(game) && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify({ type: 'unwatch', game }));
    }
  }
}
