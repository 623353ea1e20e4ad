// Issue 39, list 4: what a new player's walk found on the game and review pages. The your-turn
// notice from a correspondence game left open in a tab out of view; a banned player's game page
// after the ban resigned the game; a finished game's clocks; its link to a review board; a
// review's branches on the board and in the move list, and the last position of a counted game;
// komi 0.5 explained; the count panel's unsure note as the stones are marked; a dispute of
// stones left alive at the count; the handicap a stronger bot gives; a room whose owner left.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { haveBrowser, session, newPage, register, act, shot, call } from './helpers.mjs';


/** A server, and Ann and Bob (3k each) signed in on pages of their own. */
async function annAndBob(t) {
  const { server, browser } = await session(t);
  const ann = await newPage(browser);
  const bob = await newPage(browser);
  await register(ann, server.url, 'ann', '3k');
  await register(bob, server.url, 'bob', '3k');
  return { server, browser, ann, bob };
}

/** Ann opens a 9x9 Japanese room (with `extra` terms), Bob joins: the game and its players by colour. */
async function roomGame(ann, bob, extra = {}) {
  const room = await call(ann, 'POST', '/api/rooms', { size: 9, rules: 'japanese', parity: 'odd', ...extra });
  const joined = await call(bob, 'POST', `/api/rooms/${room.id}/join`, { guess: 'odd' });
  const bobBlack = joined.game.black.username === 'bob';
  return { id: joined.game_id, black: bobBlack ? bob : ann, white: bobBlack ? ann : bob, blackName: bobBlack ? 'bob' : 'ann', whiteName: bobBlack ? 'ann' : 'bob' };
}

/** Browser notifications granted, each one's title kept in `window.notes`, and the page out of
 * view while `window.away` is true (a tab in the background). */
function stubNotifications() {
  window.notes = [];
  window.Notification = class {
    constructor(title) {
      window.notes.push(title);
    }
    static get permission() {
      return 'granted';
    }
    static requestPermission() {
      return Promise.resolve('granted');
    }
    close() {}
  };
  Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get: () => !!window.away });
}

test('your turn in a correspondence game: a toast elsewhere, a notification from its own tab out of view', { timeout: 120_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t);
  const ann = await newPage(browser);
  const bob = await newPage(browser);
  await bob.addInitScript(stubNotifications);
  await register(ann, server.url, 'ann', '3k');
  await register(bob, server.url, 'bob', '3k');
  const g = await roomGame(ann, bob, { time: { system: 'correspondence', per_move_ms: 3 * 86_400_000 } });
  const bobMoves = g.black === bob;
  // In the lobby: Ann's move brings a toast that links to the game.
  await bob.goto(`${server.url}/#/`);
  await bob.locator('[data-testid=who]').waitFor();
  if (bobMoves) await act(bob, { type: 'move', game: g.id, point: 'C3' });
  await act(ann, { type: 'move', game: g.id, point: 'G7' });
  const toast = bob.locator('[data-testid=your-turn]');
  await toast.waitFor();
  assert.equal(await toast.textContent(), 'ann moved: your turn');
  assert.equal(await toast.locator('a').getAttribute('href'), `#/game/${g.id}`);
  // The game's own page, in a tab in the background: the board has the move, and the browser
  // tells the player, who is not looking.
  await bob.goto(`${server.url}/#/game/${g.id}`);
  await bob.locator('svg.board').waitFor();
  await bob.evaluate(() => {
    window.away = true;
  });
  await act(bob, { type: 'move', game: g.id, point: bobMoves ? 'D4' : 'C3' });
  await act(ann, { type: 'move', game: g.id, point: 'F6' });
  await bob.locator('[data-stone="F6:' + (bobMoves ? 'w' : 'b') + '"]').waitFor();
  await bob.waitForFunction(() => window.notes.length > 0, null, { timeout: 5_000 }).catch(() => {});
  assert.deepEqual(await bob.evaluate(() => window.notes), ['Your turn against ann']);
});

test('a banned player\'s open game shows its end, without the controls', { timeout: 120_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t);
  const [ann, bob, mod] = [await newPage(browser), await newPage(browser), await newPage(browser)];
  await register(ann, server.url, 'ann', '5k');
  await register(bob, server.url, 'bob', '5k');
  await register(mod, server.url, 'moder', '5k');
  const { execFileSync } = await import('node:child_process');
  execFileSync(server.bin, ['admin', 'set-role', 'moder', 'moderator', '--db', server.db]);
  const g = await roomGame(ann, bob);
  // Black, to move, has the game open: "Your move." and the buttons.
  const banned = g.black;
  await banned.goto(`${server.url}/#/game/${g.id}`);
  await banned.locator('#status').getByText('Your move.').waitFor();
  await banned.locator('[data-action=resign]').waitFor();
  await call(mod, 'POST', '/api/moderation/actions', { user: g.blackName, action: 'ban', reason: 'cheating' });
  // The ban resigned the game: the page says so and offers no move, pass or resignation.
  const result = banned.locator('[data-testid=result]');
  await result.waitFor({ timeout: 10_000 });
  assert.equal(await result.textContent(), 'White wins by resignation');
  assert.notEqual(await banned.locator('#status').textContent(), 'Your move.');
  for (const action of ['pass', 'resign', 'count', 'confirm']) assert.equal(await banned.locator(`[data-action=${action}]`).count(), 0, `no ${action} button`);
  await shot(banned, 'banned-game-ended');
});

test('a finished game: a way to its review, and komi 0.5 explained', { timeout: 120_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, ann, bob } = await annAndBob(t);
  const g = await roomGame(ann, bob, { time: { system: 'absolute', main_ms: 600_000 } });
  const page = g.white;
  await page.goto(`${server.url}/#/game/${g.id}`);
  await page.locator('svg.board').waitFor();
  // An even 9x9 game: komi 0.5, and why.
  assert.match(await page.locator('[data-testid=terms]').textContent(), /Komi 0\.5/);
  const note = page.locator('[data-testid=komi-note]');
  assert.equal(await note.isVisible(), true);
  assert.match(await note.textContent(), /^Komi 0\.5: in an even game on 9×9 or 13×13 .*rules out a draw\.$/);
  await act(g.black, { type: 'move', game: g.id, point: 'E5' });
  await act(g.white, { type: 'resign', game: g.id });
  await page.locator('[data-testid=result]').waitFor();
  // The finished game's page opens a review of it.
  const review = page.locator('[data-action=review]');
  assert.equal(await review.textContent(), 'Review this game');
  await review.click();
  await page.waitForURL(/#\/review\/\d+/);
  await page.locator('h1').getByText(`Review of game ${g.id}`).waitFor();
  assert.deepEqual(await page.locator('[data-testid=moves] button').allTextContents(), ['1. B E5']);
});

test('the clocks of a game ended by a resignation keep the time the resigner used', { timeout: 60_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, ann, bob } = await annAndBob(t);
  const g = await roomGame(ann, bob, { time: { system: 'absolute', main_ms: 600_000 } });
  await g.black.goto(`${server.url}/#/game/${g.id}`);
  await g.black.locator('svg.board').waitFor();
  // Black thinks over the first move for three seconds, and resigns.
  await g.black.waitForTimeout(3_000);
  assert.match(await g.black.locator('[data-clock=black]').textContent(), /^9:5\d$/);
  await act(g.black, { type: 'resign', game: g.id });
  await g.black.locator('[data-testid=result]').waitFor();
  assert.match(await g.black.locator('[data-clock=black]').textContent(), /^9:5\d$/, 'not back to 10:00');
  await g.black.reload();
  await g.black.locator('[data-testid=result]').waitFor();
  assert.match(await g.black.locator('[data-clock=black]').textContent(), /^9:5\d$/, 'not back to 10:00 after a reload');
});

// A record with a variation at move 3: G3 on the main line, G7 beside it.
const TREE = '(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]PB[ann]PW[bob];B[ee]C[the centre];W[cc](;B[gg];W[gc];B[cg])(;B[gc]))';

test('a review shows where it branches, and the analysis of a counted game\'s last position', { timeout: 180_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, ann, bob } = await annAndBob(t);
  const tree = await call(ann, 'POST', '/api/reviews', { sgf: TREE });
  await bob.goto(`${server.url}/#/review/${tree.id}`);
  await bob.getByText('ann leads this review.').waitFor();
  const where = (text) => bob.locator('[data-testid=where]').getByText(text, { exact: true }).waitFor();
  // The move list marks the move that has a variation beside it.
  assert.deepEqual(await bob.locator('[data-testid=moves] button').allTextContents(), ['1. B E5 ✎', '2. W C7', '3. B G3 +1', '4. W G7', '5. B C3']);
  assert.equal(await bob.locator('[data-testid=moves] button[data-move="3"]').getAttribute('title'), '1 other variation from here');
  // Where the tree branches, the board shows both next moves, lettered; none elsewhere.
  await bob.locator('[data-testid=moves] button[data-move="1"]').click();
  await where('Move 1 (B E5)');
  assert.equal(await bob.locator('#review-board [data-branch]').count(), 0);
  await bob.locator('[data-testid=moves] button[data-move="2"]').click();
  await where('Move 2 (W C7)');
  const branches = await bob.locator('#review-board [data-branch]').evaluateAll((els) => els.map((e) => e.getAttribute('data-branch')));
  assert.deepEqual(branches, ['A:G3', 'B:G7']);
  await shot(bob, 'review-branches');
  // A click on a branch's move goes down it.
  await bob.locator('[data-vertex="G7"]').click();
  await where('Move 3 (B G7) · in a variation');
  assert.deepEqual(await bob.locator('[data-testid=moves] button').allTextContents(), ['1. B E5 ✎', '2. W C7', '3. B G7 +1']);

  // A game counted after two passes, reviewed and analysed: its last position (the game over)
  // shows the last analysis, not nothing.
  const g = await roomGame(ann, bob);
  await act(g.black, { type: 'move', game: g.id, point: 'E5' });
  await act(g.white, { type: 'move', game: g.id, point: 'C3' });
  await act(g.black, { type: 'pass', game: g.id });
  await act(g.white, { type: 'pass', game: g.id });
  await act(g.black, { type: 'accept_score', game: g.id });
  await act(g.white, { type: 'accept_score', game: g.id });
  const r = await call(ann, 'POST', '/api/reviews', { game: g.id });
  await ann.goto(`${server.url}/#/review/${r.id}`);
  await ann.getByText('You lead this review').waitFor();
  await call(ann, 'POST', `/api/reviews/${r.id}/analysis`, { visits: 10 });
  await ann.getByText('Analyse again').waitFor({ timeout: 120_000 });
  await ann.locator('[data-nav=last]').click();
  await ann.locator('[data-testid=where]').getByText('Move 4 (W pass)').waitFor();
  const best = ann.locator('[data-testid=best]');
  await best.getByText(/^The game is over here\. After move 3: Black wins \d+% · [BW]\+\d+\.\d$/).waitFor();
  await ann.locator('#ownership').check();
  await ann.locator('#review-board .ownership rect').first().waitFor();
  await ann.locator('[data-nav=back]').click();
  await best.getByText(/^Black wins \d+% · [BW]\+\d+\.\d · best for white: /).waitFor();
});

/** As fairplay.test.mjs: White's corner group lives or dies by B9, and decides the winner. */
const CORNER = [
  ['E9', 'F9'], ['E8', 'F8'], ['E7', 'F7'], ['E6', 'F6'], ['E5', 'F5'], ['E4', 'F4'], ['E3', 'F3'],
  ['E2', 'F2'], ['E1', 'F1'], ['A7', 'D9'], ['B7', 'D8'], ['C7', 'C8'], ['D7', 'B8'], ['H2', 'A8'],
];

/** Ann and Bob play CORNER in a 9x9 Japanese room, both on the game page, and pass: the count. */
async function cornerCount(t) {
  const { server, ann, bob } = await annAndBob(t);
  const g = await roomGame(ann, bob);
  for (const p of [ann, bob]) await p.goto(`${server.url}/#/game/${g.id}`);
  for (const [b, w] of CORNER) {
    await act(g.black, { type: 'move', game: g.id, point: b });
    await act(g.white, { type: 'move', game: g.id, point: w });
  }
  await act(g.black, { type: 'pass', game: g.id });
  await act(g.white, { type: 'pass', game: g.id });
  return { ann, bob, g };
}

test('the count panel\'s unsure note follows the marks', { timeout: 120_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { ann, bob, g } = await cornerCount(t);
  for (const p of [ann, bob]) {
    await p.locator('[data-testid=unsure-decides]').waitFor({ timeout: 15_000 });
    assert.equal(await p.locator('[data-unsure]').count(), 5);
  }
  // White marks the corner group dead: the stones are decided, and the note goes.
  await g.white.locator('[data-vertex="D9"]').click();
  for (const p of [ann, bob]) {
    await p.locator('[data-stone="D9:w"].dead').waitFor();
    await p.locator('[data-testid=unsure-decides]').waitFor({ state: 'detached' });
    assert.equal(await p.locator('[data-testid=unsure-note]').count(), 0);
    assert.equal(await p.locator('[data-unsure]').count(), 0, 'no stone ringed as unsure');
    assert.equal(await p.locator('[data-action=accept]').evaluate((b) => b.classList.contains('primary')), true);
  }
  // Unmarked again: unsure again.
  await g.white.locator('[data-vertex="D9"]').click();
  await g.white.locator('[data-testid=unsure-decides]').waitFor();
});

test('a player disputes the partner\'s stones left alive, and play resumes with their owner to move', { timeout: 120_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { ann, bob, g } = await cornerCount(t);
  await g.black.locator('[data-testid=score]').waitFor({ timeout: 15_000 });
  assert.match(await g.black.locator('[data-testid=count-rules]').textContent(), /click your partner's to dispute them/);
  // Black taps White's corner group: asked first; Cancel changes nothing.
  await g.black.locator('[data-vertex="D9"]').click();
  const dialog = g.black.locator('[data-testid=ask]');
  assert.match(await dialog.locator('p').textContent(), /Play resumes, their owner to move/);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
  assert.equal(await g.black.locator('[data-testid=score]').count(), 1, 'still counting');
  // Disputed: both hear of it, play is back, White (the stones' owner) to move.
  await g.black.locator('[data-vertex="D9"]').click();
  await dialog.getByRole('button', { name: 'Dispute' }).click();
  await g.white.getByText(`${g.blackName} disputed 5 stones: play resumes, their owner to move.`).waitFor();
  await g.white.getByText('Your move.').waitFor();
  assert.equal(await g.black.locator('[data-testid=score]').count(), 0, 'the count is over');
  // Marking one's own stones is as before: nothing to dispute in one's own group.
  await act(g.white, { type: 'pass', game: g.id });
  await act(g.black, { type: 'pass', game: g.id });
  await g.white.locator('[data-testid=score]').waitFor({ timeout: 15_000 });
  await g.white.locator('[data-vertex="D9"]').click();
  await g.white.locator('[data-stone="D9:w"].dead').waitFor();
  assert.equal(await g.white.locator('[data-testid=ask]').count(), 0);
});

test('a stronger bot gives a registered player the handicap their ranks call for', { timeout: 60_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t);
  const page = await newPage(browser);
  await register(page, server.url, 'ann', '12k');
  await page.goto(`${server.url}/#/`);
  // tengen-bot (13k) is weaker: an even game; tengen-9 (1d) is twelve ranks stronger: nine stones.
  const weak = page.locator('[data-bot="tengen-bot"]');
  await weak.waitFor();
  assert.equal(await weak.getAttribute('data-handicap'), null);
  const strong = page.locator('[data-bot="tengen-9"]');
  assert.equal(await strong.getAttribute('data-handicap'), '9');
  assert.match(await strong.textContent(), /9 stones for you$/);
  // tengen-2 is 8k on 9x9 (four stones) and plays 3k on 19x19: the board relabels it, nine.
  const two = page.locator('[data-bot="tengen-2"]');
  assert.equal(await two.getAttribute('data-handicap'), '4');
  await page.locator('#bot-terms select[name=size]').selectOption('19');
  assert.match(await two.textContent(), /^Play tengen-2 \(3k\) · 9 stones for you$/);
  assert.equal(await two.getAttribute('data-handicap'), '9');
  await page.locator('#bot-terms select[name=size]').selectOption('13');
  assert.equal(await two.getAttribute('data-handicap'), '4');
  await strong.click();
  await page.waitForURL(/#\/game\/\d+/);
  const id = Number(page.url().split('/').pop());
  const game = await call(page, 'GET', `/api/games/${id}`);
  assert.equal(game.terms.handicap, 9);
  assert.equal(game.black.username, 'ann');
});

test('a room whose owner left says so, cannot be joined, and closes', { timeout: 120_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t);
  const ann = await newPage(browser);
  const bob = await newPage(browser);
  await register(ann, server.url, 'ann', '3k');
  await register(bob, server.url, 'bob', '5k');
  await ann.goto(`${server.url}/#/`);
  await ann.locator('[data-testid=who]').waitFor();
  const room = await call(ann, 'POST', '/api/rooms', { size: 9, rules: 'japanese' });
  await bob.goto(`${server.url}/#/`);
  const join = bob.locator(`[data-join="${room.id}"]`);
  await join.waitFor();
  assert.equal(await join.isDisabled(), false);
  assert.equal(await bob.locator('[data-testid=owner-away]').count(), 0);
  // Ann closes her tab: her room says so at once, and cannot be joined.
  await ann.close();
  await bob.locator('[data-testid=owner-away]').waitFor({ timeout: 10_000 });
  assert.equal(await join.isDisabled(), true);
  // Half a minute later it is gone from the list, and closed for good.
  await join.waitFor({ state: 'detached', timeout: 60_000 });
  const closed = await call(bob, 'GET', `/api/rooms/${room.id}`);
  assert.equal(closed.status, 'cancelled');
});
