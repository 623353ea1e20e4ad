// The game page's reducer (web/js/game-state.js) with no browser: a snapshot, then the socket's
// messages and the viewer's doings, and the state they leave. Run: node --test tests/game_state.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initial, reduce, sideOf, myTurn, openUnsure, hintsOffered, HINTS } from '../js/game-state.js';

const EMPTY = Array(5).fill('.....');

/** A 5x5 game in play, Black to move, as `GET /api/games/ID` gives it. */
function snapshot(over = {}) {
  return {
    id: 7,
    seq: 3,
    terms: { size: 5, rules: 'japanese', komi: '0.5', handicap: 0, take_back: true, time: { system: 'byoyomi' } },
    black: { id: 1, username: 'ann', rank: '3k' },
    white: { id: 2, username: 'bob', rank: '2k' },
    phase: 'play',
    to_move: 'black',
    board: EMPTY,
    moves: [],
    captures: { black: 0, white: 0 },
    handicap_stones: [],
    ko: null,
    takeback_requested_by: null,
    scoring_requested: { black: false, white: false },
    accepted: { black: false, white: false },
    dead: [],
    unsure: [],
    score: null,
    result: null,
    end_reason: null,
    annulled: null,
    presence: { black: { connected: true, until: null, arrived: true }, white: { connected: true, until: null, arrived: true } },
    clocks: { black: { main_ms: 60000 }, white: { main_ms: 60000 }, running: 'black', server_ms: 1000, vacation: {} },
    ...over,
  };
}

let seq = 3;
const ev = (event, extra = {}) => ({ type: 'event', game: 7, seq: ++seq, at: 1000 + seq, event, ...extra });
const move = (color, point, extra) => ev({ type: 'move', color, point }, extra);
const run = (s, msgs) => msgs.reduce(reduce, s);

function fresh(over, me = 'black') {
  seq = (over && over.seq) ?? 3;
  return initial(snapshot(over), me, 0);
}

test('the first state is the snapshot, the viewer and nothing pending', () => {
  const snap = snapshot();
  const s = initial(snap, 'white', 42, true);
  assert.equal(s.game, snap);
  assert.equal(s.me, 'white');
  assert.equal(s.openedAt, 3);
  assert.equal(s.fetchedAt, 42);
  assert.equal(s.confirmMoves, true);
  assert.deepEqual([s.review, s.pending, s.estimate, s.chat, s.toasts], [null, null, null, [], []]);
  assert.equal(sideOf(snap, 'ann'), 'black');
  assert.equal(sideOf(snap, 'bob'), 'white');
  assert.equal(sideOf(snap, 'carol'), null);
  assert.equal(sideOf(snap, null), null);
});

test('moves go on the board, turn the move and capture stones', () => {
  let s = fresh();
  assert.equal(myTurn(s), true);
  s = run(s, [move('black', 'A4'), move('white', 'A5'), move('black', 'B5')]);
  const g = s.game;
  assert.equal(g.seq, 6);
  assert.deepEqual(g.moves.map((m) => m.point), ['A4', 'A5', 'B5']);
  assert.equal(g.board[0], '.X...', 'the white stone at A5 is captured');
  assert.equal(g.board[1], 'X....');
  assert.deepEqual(g.captures, { black: 1, white: 0 });
  assert.equal(g.to_move, 'white');
  assert.equal(myTurn(s), false);
  // The state is new data: the snapshot it started from is untouched.
  assert.deepEqual(snapshot().board, EMPTY);
});

test('a move takes its clocks from the event, and withdraws the requests', () => {
  let s = fresh({ scoring_requested: { black: false, white: true }, takeback_requested_by: 'white' });
  const clocks = { black: { main_ms: 55000 }, white: { main_ms: 60000 }, running: 'white', server_ms: 6000 };
  s = reduce(s, move('black', 'C3', { clocks }));
  assert.equal(s.game.clocks, clocks);
  assert.equal(s.game.clocks.running, 'white');
  assert.deepEqual(s.game.scoring_requested, { black: false, white: false });
  assert.equal(s.game.takeback_requested_by, null);
});

test('an event already in the snapshot, a duplicate or one after a gap changes nothing', () => {
  let s = fresh({ seq: 10, moves: [{ color: 'white', point: 'C3' }], board: ['.....', '.....', '..O..', '.....', '.....'] });
  // The socket replays the history from the first event: those are in the snapshot already.
  const old = { type: 'event', game: 7, seq: 4, at: 1, event: { type: 'move', color: 'white', point: 'C3' } };
  s = reduce(s, old);
  assert.equal(s.game.moves.length, 1);
  assert.equal(s.game.seq, 10);
  const next = { type: 'event', game: 7, seq: 11, at: 2, event: { type: 'move', color: 'black', point: 'D4' } };
  s = reduce(s, next);
  assert.equal(s.game.moves.length, 2);
  s = reduce(s, next); // the same event twice
  assert.equal(s.game.moves.length, 2);
  const gap = { type: 'event', game: 7, seq: 13, at: 3, event: { type: 'move', color: 'white', point: 'E5' } };
  s = reduce(s, gap); // seq 12 is missing: the snapshot read next brings both
  assert.equal(s.game.moves.length, 2);
  assert.equal(s.game.seq, 11);
  s = reduce(s, { type: 'snapshot', state: snapshot({ seq: 13, moves: [{}, {}, {}, {}] }), at: 99 });
  assert.equal(s.game.seq, 13);
  assert.equal(s.game.moves.length, 4);
  assert.equal(s.fetchedAt, 99);
});

test('two passes and the engine\'s proposal start the count; marks toggle; acceptance; the result', () => {
  let s = fresh();
  s = run(s, [ev({ type: 'pass', color: 'black' }), ev({ type: 'pass', color: 'white' })]);
  assert.deepEqual(s.game.moves.map((m) => m.point), ['pass', 'pass']);
  assert.equal(s.game.phase, 'play');
  s = reduce(s, ev({ type: 'scoring_started', dead: ['B2'], unsure: ['D4', 'E4'] }));
  assert.equal(s.game.phase, 'scoring');
  assert.deepEqual(s.game.dead, ['B2']);
  assert.deepEqual(openUnsure(s.game), ['D4', 'E4']);
  s = reduce(s, ev({ type: 'dead_toggled', color: 'white', points: ['D4', 'B2'] }));
  assert.deepEqual(s.game.dead, ['D4']);
  assert.deepEqual(openUnsure(s.game), ['E4']);
  s = reduce(s, ev({ type: 'score_accepted', color: 'black' }));
  assert.deepEqual(s.game.accepted, { black: true, white: false });
  s = reduce(s, ev({ type: 'dead_toggled', color: 'white', points: ['E4'] }));
  assert.deepEqual(s.game.accepted, { black: false, white: false }, 'a new marking withdraws acceptances');
  s = run(s, [ev({ type: 'score_accepted', color: 'black' }), ev({ type: 'score_accepted', color: 'white' }), ev({ type: 'finished', result: 'W+3.5', reason: 'count' })]);
  assert.equal(s.game.phase, 'finished');
  assert.equal(s.game.result, 'W+3.5');
  assert.equal(s.game.end_reason, 'count');
  assert.equal(s.game.clocks.running, null);
});

test('resuming from the count, and a dispute settled by play', () => {
  let s = fresh();
  s = run(s, [ev({ type: 'pass', color: 'black' }), ev({ type: 'pass', color: 'white' }), ev({ type: 'scoring_started', dead: ['B2'], unsure: [] })]);
  s = reduce(s, ev({ type: 'resumed', color: 'white' }));
  assert.equal(s.game.phase, 'play');
  assert.deepEqual(s.game.dead, []);
  s = run(s, [ev({ type: 'pass', color: 'black' }), ev({ type: 'pass', color: 'white' }), ev({ type: 'scoring_started', dead: [], unsure: [] })]);
  s = reduce(s, ev({ type: 'disputed', color: 'black', points: ['C3'], verdict: 'dead' }));
  assert.deepEqual(s.game.dead, ['C3']);
  assert.deepEqual(s.toasts, [{ key: 'count.disputed_dead', vars: { name: 'ann', n: 1 } }]);
  s = reduce(s, ev({ type: 'disputed', color: 'black', points: ['D3'], verdict: 'play' }));
  assert.equal(s.game.phase, 'play');
  assert.equal(s.game.to_move, 'white', 'the disputed stones\' owner moves');
});

test('resigning ends the game for the other side', () => {
  const s = reduce(fresh(), ev({ type: 'resign', color: 'white' }));
  assert.equal(s.game.phase, 'finished');
  assert.equal(s.game.result, 'B+R');
  assert.equal(s.game.end_reason, 'resign');
  assert.equal(myTurn(s), false);
});

test('a take-back: asked (news for the partner only), allowed, and the board replayed', () => {
  let s = fresh();
  s = run(s, [move('black', 'A4'), move('white', 'A5'), move('black', 'B5')]);
  assert.deepEqual(s.game.captures, { black: 1, white: 0 });
  const asked = ev({ type: 'takeback_requested', color: 'black' });
  const told = reduce({ ...s, me: 'white' }, asked);
  assert.deepEqual(told.toasts, [{ key: 'game.takeback_asked', vars: { name: 'ann' } }]);
  s = reduce(s, asked);
  assert.equal(s.game.takeback_requested_by, 'black');
  assert.deepEqual(s.toasts, [], 'one\'s own request is no news');
  s = reduce(s, ev({ type: 'takeback_answered', color: 'white', accepted: true, plies: 1 }));
  assert.equal(s.game.takeback_requested_by, null);
  assert.deepEqual(s.game.moves.map((m) => m.point), ['A4', 'A5']);
  assert.equal(s.game.board[0], 'O....', 'the captured stone is back');
  assert.deepEqual(s.game.captures, { black: 0, white: 0 });
  assert.equal(s.game.to_move, 'black');
  assert.deepEqual(s.toasts, [{ key: 'game.takeback_allowed', vars: {} }]);
  s = reduce(s, ev({ type: 'takeback_answered', color: 'white', accepted: false }));
  assert.deepEqual(s.toasts, [{ key: 'game.takeback_refused', vars: {} }]);
  assert.equal(s.game.moves.length, 2);
});

test('history replayed from before the page opened is no news', () => {
  let s = fresh({ seq: 20 }, 'white');
  const old = { type: 'event', game: 7, seq: 5, at: 1, event: { type: 'takeback_requested', color: 'black' } };
  s = reduce(s, old);
  assert.deepEqual(s.toasts, []);
  assert.equal(s.game.takeback_requested_by, null);
});

test('presence: away with a deadline, back in time; a vacation, and one already over', () => {
  let s = fresh();
  s = reduce(s, ev({ type: 'disconnected', color: 'white', until: 90000 }));
  assert.deepEqual(s.game.presence.white, { connected: false, until: 90000, arrived: true });
  assert.deepEqual(s.game.presence.black, { connected: true, until: null, arrived: true });
  s = reduce(s, ev({ type: 'reconnected', color: 'white' }));
  assert.deepEqual(s.game.presence.white, { connected: true, until: null, arrived: true });
  s = reduce(s, ev({ type: 'vacation', color: 'black', until: 5000000 }));
  assert.equal(s.game.clocks.vacation.black, 5000000);
  s = reduce(s, ev({ type: 'vacation', color: 'black', until: 5 }));
  assert.equal(s.game.clocks.vacation.black, null);
});

test('chat: every line once, in order, history included; hidden lines go; empty ones never come', () => {
  let s = fresh({ seq: 10 });
  const line = (n, user, text) => ({ type: 'event', game: 7, seq: n, at: n, event: { type: 'chat', user, text } });
  s = run(s, [line(2, 'ann', 'hi'), line(5, 'bob', 'hello'), line(5, 'bob', 'hello'), line(7, 'carol', '')]);
  assert.deepEqual(s.chat, [{ seq: 2, user: 'ann', text: 'hi' }, { seq: 5, user: 'bob', text: 'hello' }]);
  s = reduce(s, line(11, 'ann', 'gg'));
  assert.equal(s.chat.length, 3);
  assert.equal(s.game.seq, 11, 'a chat event is the game\'s next event too');
  s = reduce(s, { type: 'event', game: 7, seq: 12, at: 12, event: { type: 'chat_hidden', seq: 5 } });
  assert.deepEqual(s.chat.map((l) => l.seq), [2, 11]);
});

test('the viewer: a pending move, confirmations, the socket closed for good', () => {
  let s = fresh();
  s = reduce(s, { type: 'pending', point: 'C3' });
  assert.equal(s.pending, 'C3');
  s = reduce(s, { type: 'confirm_moves', on: true });
  assert.equal(s.confirmMoves, true);
  assert.equal(s.pending, null);
  s = reduce(s, { type: 'hover', point: 'D4' });
  assert.equal(s.hover, 'D4');
  s = reduce(s, { type: 'pending', point: 'C3' });
  s = reduce(s, ev({ type: 'resign', color: 'black' }));
  assert.equal(s.pending, null, 'nothing waits once the game is over');
  const closed = reduce({ ...fresh(), pending: 'C3' }, { type: 'closed', loggedIn: false });
  assert.equal(closed.me, null);
  assert.equal(closed.pending, null);
  assert.equal(reduce(fresh(), { type: 'closed', loggedIn: true }).me, 'black');
});

test('stepping through a finished game stays within its moves; not while it is played', () => {
  let s = fresh();
  s = run(s, [move('black', 'C3'), move('white', 'D4'), ev({ type: 'resign', color: 'white' })]);
  assert.equal(reduce(fresh(), { type: 'step', by: -1 }).review, null, 'no stepping during play');
  s = reduce(s, { type: 'step', by: -1 });
  assert.equal(s.review, 1);
  s = run(s, [{ type: 'step', by: -1 }, { type: 'step', by: -1 }]);
  assert.equal(s.review, 0);
  s = reduce(s, { type: 'review', at: 99 });
  assert.equal(s.review, 2);
  assert.equal(myTurn(s), false);
});

test('an estimate lasts while its position is on the board', () => {
  let s = fresh();
  s = reduce(s, { type: 'estimate', estimate: { result: 'B+2.5', ownership: [], unsure: [], lead_range: [2.5, 2.5] } });
  assert.equal(s.estimate.seq, 0);
  assert.equal(s.estimate.result, 'B+2.5');
  s = reduce(s, { type: 'hover', point: 'A1' });
  assert.ok(s.estimate, 'a hover keeps it');
  s = reduce(s, move('black', 'C3'));
  assert.equal(s.estimate, null, 'a move drops it');
});

test('a hint lasts while its position is on the board, and only the weakest bot\'s 9x9 games offer one', () => {
  let s = fresh();
  assert.equal(hintsOffered(s), false, 'not against a player');
  const first = { terms: { ...snapshot().terms, size: 9 }, board: Array(9).fill('.........'), white: { id: 2, username: 'tengen-bot', rank: '13k', bot: true } };
  s = fresh(first);
  assert.equal(hintsOffered(s), true);
  assert.equal(hintsOffered(fresh(first, null)), false, 'not to a spectator');
  assert.equal(hintsOffered(fresh({ ...first, white: { ...first.white, username: 'tengen-9' } })), false, 'not against a stronger bot');
  assert.equal(s.hintsLeft, HINTS);
  s = reduce(s, { type: 'hint', hint: { move: 'C3', left: 2 } });
  assert.deepEqual([s.hint.move, s.hint.seq, s.hintsLeft], ['C3', 0, 2]);
  s = reduce(s, { type: 'hover', point: 'A1' });
  assert.ok(s.hint, 'a hover keeps it');
  s = reduce(s, move('black', 'C3'));
  assert.deepEqual([s.hint, s.hintsLeft], [null, 2], 'a move drops it, the count stays');
  s = reduce(s, { type: 'no_hints' });
  assert.equal(s.hintsLeft, 0);
});
