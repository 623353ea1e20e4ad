// The lobby's state (web/js/lobby-state.js) with no browser: the requests its forms make, where a
// quick match stands, who may join a room and how. Run: node --test tests/lobby_state.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  matchRequest, matchStep, matchNews, roomClock, roomTerms, rankLevel, suggestedHandicap, botHandicap, botRank,
  botRequest, botAway, roomChoices, hoSunColor, playsIn, friendsInOrder, RANKS,
} from '../js/lobby-state.js';

test('a quick-match request: the sizes ticked, the bounds chosen, none without a size', () => {
  assert.deepEqual(matchRequest({ sizes: ['9', '19'], speed: 'live', rules: 'japanese', min_rank: '', max_rank: '3d', bot_after_s: '30' }), { sizes: [9, 19], speed: 'live', rules: 'japanese', max_rank: '3d', bot_after_s: 30 });
  assert.deepEqual(matchRequest({ sizes: ['13'], speed: 'blitz', rules: 'korean', min_rank: '', max_rank: '', bot_after_s: '' }), { sizes: [13], speed: 'blitz', rules: 'korean' });
  assert.equal(matchRequest({ sizes: [], speed: 'live', rules: 'japanese' }), null);
});

test('a quick match waits, pairs once with one notice, and ends with an outcome', () => {
  let qm = { since: null, paired: null };
  qm = matchStep(qm, { state: 'waiting', since: 1000 });
  assert.deepEqual([qm.since, qm.waiting, qm.status, qm.go], [1000, true, 'looking', null]);
  // The socket, the request's answer and the poll all report the pairing: one notice.
  qm = matchStep(qm, { state: 'matched', game: 7 });
  assert.deepEqual([qm.go, qm.notice, qm.paired], [7, true, 7]);
  qm = matchStep(qm, { state: 'matched', game: 7 });
  assert.deepEqual([qm.go, qm.notice], [7, false]);
  const failed = matchStep({ since: 5, paired: 7 }, { state: 'failed', code: 'no_opponent' });
  assert.deepEqual([failed.since, failed.waiting, failed.status, failed.paired], [null, false, 'outcome', 7]);
  assert.equal(matchStep(qm, { state: 'withdrawn' }).status, 'outcome');
  assert.equal(matchStep(qm, { state: 'idle' }).status, '');
  // A "matched" without a game is no pairing.
  assert.equal(matchStep(qm, { state: 'matched' }).go, null);
});

test('a polled status is news while waiting, or for the request the panel waits for', () => {
  assert.equal(matchNews({ since: null }, null), false);
  assert.equal(matchNews({ since: null }, { state: 'waiting' }), true);
  // An old outcome does not send the player back to an old game.
  assert.equal(matchNews({ since: null }, { state: 'matched', game: 3 }), false);
  assert.equal(matchNews({ since: 10 }, { state: 'matched', game: 3 }), true);
  assert.equal(matchNews({ since: 10 }, { state: 'idle' }), false);
});

test('a room\'s clock and terms from the form', () => {
  const f = { system: 'byoyomi', main: '30', count: '5', seconds: '30', days: '3', size: '19', rules: 'korean', parity: 'odd', komi: '', handicap: '' };
  assert.deepEqual(roomClock(f), { system: 'byoyomi', main_ms: 1800000, periods: 5, period_ms: 30000 });
  assert.deepEqual(roomClock({ ...f, system: 'canadian', count: '20', seconds: '600' }), { system: 'canadian', main_ms: 1800000, stones: 20, period_ms: 600000 });
  assert.deepEqual(roomClock({ ...f, system: 'fischer', seconds: '10' }), { system: 'fischer', main_ms: 1800000, increment_ms: 10000 });
  assert.deepEqual(roomClock({ ...f, system: 'absolute' }), { system: 'absolute', main_ms: 1800000 });
  assert.deepEqual(roomClock({ ...f, system: 'correspondence' }), { system: 'correspondence', per_move_ms: 3 * 86400000 });
  assert.deepEqual(roomClock({ ...f, system: 'none' }), { system: 'none' });
  assert.deepEqual(roomTerms(f), { size: 19, rules: 'korean', take_back: false, estimate: false, disputes: 'play', parity: 'odd', time: roomClock(f) });
  const t = roomTerms({ ...f, take_back: 'on', estimate: 'on', disputes: 'on', komi: '6.5', handicap: '4' });
  assert.deepEqual([t.take_back, t.estimate, t.disputes, t.komi, t.handicap], [true, true, 'engine', '6.5', 4]);
});

test('ranks on one scale, and the handicap a stronger bot gives', () => {
  assert.deepEqual(['30k', '1k', '1d', '9d', '1p', 'x'].map(rankLevel), [-29, 0, 1, 9, 10, null]);
  assert.equal(RANKS.length, 39);
  assert.deepEqual([RANKS[0], RANKS[29], RANKS[38]], ['30k', '1k', '9d']);
  assert.equal(suggestedHandicap('5k', '4k'), 0);
  assert.equal(suggestedHandicap('5k', '3k'), 2);
  // No eight-stone handicap: the largest usual number below the difference.
  assert.equal(suggestedHandicap('10k', '2k'), 7);
  assert.equal(suggestedHandicap('20k', '5d'), 9);
  assert.equal(suggestedHandicap('?', '5d'), 0);
  // A guest's rank is the server's guess: no handicap from it.
  assert.equal(botHandicap({ rank: '10k', guest: true }, { rank: '1d' }), 0);
  assert.equal(botHandicap({ rank: '10k' }, { rank: '1d' }), 9);
  assert.equal(botHandicap(null, { rank: '1d' }), 0);
  // A bot's rank on the board chosen: tengen-2 is 8k on 9x9 and 3k on 19x19, so a 10k takes
  // two stones on 9x9 and seven on 19x19; First Capture goes by the account's rank.
  const two = { rank: '8k', ranks_by_size: { 17: '3k', 19: '3k' } };
  assert.deepEqual([9, 13, 19].map((n) => botRank(two, n, 'chinese')), ['8k', '8k', '3k']);
  assert.equal(botRank(two, 19, 'first-capture'), '8k');
  assert.equal(botRank({ rank: '5k' }, 19, 'japanese'), '5k');
  assert.equal(botHandicap({ rank: '10k' }, two, 9, 'chinese'), 2);
  assert.equal(botHandicap({ rank: '10k' }, two, 19, 'japanese'), 7);
});

test('a bot game: a handicap means Black, else the colour chosen', () => {
  const f = { size: '9', rules: 'chinese', color: 'white', handicap: '' };
  assert.deepEqual(botRequest(f, 0), { size: 9, rules: 'chinese', color: 'white' });
  assert.deepEqual(botRequest(f, 3), { size: 9, rules: 'chinese', handicap: 3 });
  assert.deepEqual(botRequest({ ...f, handicap: '5' }, 3), { size: 9, rules: 'chinese', handicap: 5 });
  assert.deepEqual(botRequest({ ...f, color: '' }, 0), { size: 9, rules: 'chinese' });
  assert.equal(botAway([{ username: 'gnugo' }], 'gnugo'), false);
  assert.equal(botAway([], 'gnugo'), true);
});

test('a room: its owner closes it, the same rank guesses the parity, an away owner cannot be joined', () => {
  const room = { id: 4, owner: { username: 'ann', rank: '3k', here: true } };
  assert.deepEqual(roomChoices(room, { username: 'ann', rank: '3k' }), { mine: true, same: false, away: false, joins: [] });
  assert.deepEqual(roomChoices(room, { username: 'bob', rank: '3k' }).joins, [{ guess: 'odd', id: '4-odd' }, { guess: 'even', id: '4-even' }]);
  const other = roomChoices(room, { username: 'bob', rank: '1d' });
  assert.deepEqual([other.same, other.joins], [false, [{ guess: null, id: '4' }]]);
  assert.equal(roomChoices({ ...room, owner: { ...room.owner, here: false } }, null).away, true);
  assert.equal(hoSunColor({ game: { black: { username: 'bob' } } }, 'bob'), 'black');
  assert.equal(hoSunColor({ game: { black: { username: 'ann' } } }, 'bob'), 'white');
});

test('live games and friends as the lists show them', () => {
  assert.equal(playsIn({ black: 'ann', white: 'bob' }, { username: 'bob' }), true);
  assert.equal(playsIn({ black: 'ann', white: 'bob' }, { username: 'cat' }), false);
  assert.equal(playsIn({ black: 'ann', white: 'bob' }, null), false);
  const friends = [{ name: 'a', online: false }, { name: 'b', online: true }, { name: 'c', online: false }, { name: 'd', online: true }];
  assert.deepEqual(friendsInOrder(friends).map((f) => f.name), ['b', 'd', 'a', 'c']);
  assert.equal(friends[0].name, 'a', 'the list given is left as it was');
});
