// The review board: an uploaded record explored by its owner (navigation, a new variation, a
// comment) while a follower's page follows live, and the engine's analysis with its progress.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { haveBrowser, session, newPage, register, shot, PHONE } from './helpers.mjs';

const RECORD = '(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]PB[ann]PW[bob];B[ee]C[the centre];W[cc];B[gg];W[gc];B[cg])';

test('an owner leads a review that a follower sees live, with the analysis', { timeout: 180_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t);
  const ann = await newPage(browser);
  await register(ann, server.url, 'ann', '3k');
  await ann.goto(`${server.url}/#/user/ann`);
  await ann.locator('#upload input[type=file]').setInputFiles({ name: 'game.sgf', mimeType: 'application/x-go-sgf', buffer: Buffer.from(RECORD) });
  await ann.locator('#upload button[type=submit]').click();
  await ann.waitForURL(/#\/review\/\d+/);
  const id = Number(ann.url().match(/#\/review\/(\d+)/)[1]);
  await ann.getByText('You lead this review').waitFor();
  // The follower, not logged in, opens the same review.
  const bob = await newPage(browser);
  await bob.goto(`${server.url}/#/review/${id}`);
  await bob.getByText('ann leads this review.').waitFor();
  // Ann steps to the first move: Bob's page follows, with the comment.
  await ann.locator('[data-nav=next]').click();
  await ann.locator('[data-testid=where]').getByText('Move 1 (B E5)').waitFor();
  await bob.locator('[data-testid=where]').getByText('Move 1 (B E5)').waitFor();
  assert.equal(await bob.locator('[data-testid=comment]').textContent(), 'the centre');
  // Ann tries another answer to E5: a variation, on both pages.
  await ann.locator('[data-vertex="G7"]').click();
  await ann.locator('[data-stone="G7:w"]').waitFor();
  await bob.locator('[data-stone="G7:w"]').waitFor();
  await bob.locator('[data-testid=where]').getByText('in a variation').waitFor();
  await ann.locator('#comment-text').fill('the 3-4 point instead');
  await ann.locator('#comment-save').click();
  await bob.locator('[data-testid=comment]').getByText('the 3-4 point instead').waitFor();
  // An occupied point is refused and changes nothing.
  await ann.locator('[data-vertex="E5"]').click();
  await ann.locator('.toast.error').getByText('occupied').waitFor();
  // Told in the board's coordinates, not the record's.
  assert.match(await ann.locator('.toast.error').textContent(), /E5/);
  assert.doesNotMatch(await ann.locator('.toast.error').textContent(), /\[ee\]/);
  const errors = await ann.locator('.toast.error').allTextContents();
  assert.equal(errors.length, 1, `no other error on the way: ${errors.join(' | ')}`);
  // The export keeps the variation and the comment.
  const sgf = await ann.evaluate(async (id) => (await fetch(`/api/reviews/${id}/sgf`)).text(), id);
  assert.match(sgf.replace(/\n/g, ''), /\(;W\[cc\];B\[gg\];W\[gc\];B\[cg\]\)\(;W\[gc\]C\[the 3-4 point instead\]\)/);
  // The analysis: a progress bar, then Black's win rate along the game and the best moves.
  await ann.locator('[data-nav=first]').click();
  await ann.locator('#analyse').click();
  await ann.getByText('Analyse again').waitFor({ timeout: 120_000 });
  assert.equal(await ann.locator('#winrate polyline.rating').getAttribute('data-points'), '6');
  await bob.locator('#winrate polyline.rating').waitFor();
  await ann.locator('[data-testid=best]').getByText(/Black wins \d+% · [BW]\+\d+\.\d · best for black: [A-T]\d+/).waitFor();
  await shot(ann, 'review-desktop');
  await bob.setViewportSize(PHONE);
  assert.ok(await bob.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no sideways scroll on a phone');
  await shot(bob, 'review-phone');
});

// A record with a variation at move 3: G3 on the main line, G7 beside it.
const TREE = '(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]PB[ann]PW[bob];B[ee]C[the centre];W[cc](;B[gg];W[gc];B[cg])(;B[gc]))';

test('the review board as players expect it: keys, wheel, moves, tree, candidates, graph, markup, chat', { timeout: 240_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t);
  const ann = await newPage(browser);
  await register(ann, server.url, 'ann', '3k');
  await ann.goto(`${server.url}/#/user/ann`);
  await ann.locator('#upload input[type=file]').setInputFiles({ name: 'tree.sgf', mimeType: 'application/x-go-sgf', buffer: Buffer.from(TREE) });
  await ann.locator('#upload button[type=submit]').click();
  await ann.waitForURL(/#\/review\/\d+/);
  const id = Number(ann.url().match(/#\/review\/(\d+)/)[1]);
  const bob = await newPage(browser);
  await register(bob, server.url, 'bob', '3k');
  await bob.goto(`${server.url}/#/review/${id}`);
  await bob.getByText('ann leads this review.').waitFor();
  const where = (page, text) => page.locator('[data-testid=where]').getByText(text, { exact: true }).waitFor();

  // The move list: numbers, coordinates as D4, comments marked, and the other variations beside a move.
  const moves = await ann.locator('[data-testid=moves] button').allTextContents();
  assert.deepEqual(moves, ['1. B E5 ✎', '2. W C7', '3. B G3 +1', '4. W G7', '5. B C3']);
  // Keys: right steps on, down and up switch variation, Home and End.
  await ann.locator('h1').click();
  await ann.keyboard.press('ArrowRight');
  await where(ann, 'Move 1 (B E5)');
  await ann.keyboard.press('ArrowRight');
  await where(ann, 'Move 2 (W C7)');
  await ann.keyboard.press('ArrowRight');
  await where(ann, 'Move 3 (B G3)');
  await ann.keyboard.press('ArrowDown');
  await where(ann, 'Move 3 (B G7) · in a variation');
  await where(bob, 'Move 3 (B G7) · in a variation');
  await ann.keyboard.press('ArrowUp');
  await where(ann, 'Move 3 (B G3)');
  await ann.keyboard.press('End');
  await where(ann, 'Move 5 (B C3)');
  await ann.keyboard.press('ArrowLeft');
  await where(ann, 'Move 4 (W G7)');
  await ann.keyboard.press('Home');
  await where(ann, 'Move 0');
  // The mouse wheel over the board steps.
  await ann.locator('#review-board svg').hover();
  await ann.mouse.wheel(0, 120);
  await where(ann, 'Move 1 (B E5)');
  await ann.mouse.wheel(0, -120);
  await where(ann, 'Move 0');
  // The variation tree: a click goes there, and the node is highlighted.
  await ann.locator('[data-testid=tree] circle[data-path="0.0.1"]').click();
  await where(ann, 'Move 3 (B G7) · in a variation');
  assert.match(await ann.locator('[data-testid=tree] circle[data-path="0.0.1"]').getAttribute('class'), /current/);
  // The move list: a click goes there.
  await ann.locator('[data-testid=moves] button[data-move="1"]').click();
  await where(ann, 'Move 1 (B E5)');
  await where(bob, 'Move 1 (B E5)');

  // Markup by the owner, seen by the follower.
  await ann.locator('[data-tool=TR]').click();
  await ann.locator('[data-vertex="C7"]').click();
  await ann.locator('[data-tool=LB]').click();
  await ann.locator('[data-vertex="G3"]').click();
  await bob.locator('#review-board [data-mark="TR:"]').waitFor();
  await bob.locator('#review-board [data-mark="LB:A"]').waitFor();
  assert.equal(await bob.locator('#review-board text[data-mark="LB:A"]').textContent(), 'A');
  assert.equal(await bob.locator('#tools').isHidden(), true, 'no markup tools for a follower');
  await ann.locator('[data-tool=play]').click();

  // Chat beside the board, both ways.
  await bob.locator('#chat-text').fill('why not G7 first?');
  await bob.locator('#chat-form button[type=submit]').click();
  await ann.locator('[data-testid=review-chat]').getByText('why not G7 first?').waitFor();
  await ann.locator('#chat-text').fill('E5 takes the centre');
  await ann.locator('#chat-text').press('Enter');
  await bob.locator('[data-testid=review-chat]').getByText('E5 takes the centre').waitFor();
  assert.match(await bob.locator('[data-testid=review-chat] li').first().textContent(), /^bob: /);

  // The analysis: candidates on the board with their win rates, the best marked.
  await ann.locator('[data-nav=first]').click();
  await where(ann, 'Move 0');
  await ann.locator('#analyse').click();
  await ann.getByText('Analyse again').waitFor({ timeout: 180_000 });
  const best = ann.locator('#review-board .cand.best');
  await best.waitFor();
  assert.match(await best.locator('.cand-rate').textContent(), /^\d{1,3}$/);
  const move = await best.getAttribute('data-candidate');
  assert.match(move, /^[A-HJ]\d$/, 'a candidate named as D4 is');
  await ann.locator('[data-testid=best]').getByText(new RegExp(`best for black: ${move} \\(\\d+%\\)`)).waitFor();
  // Hovering it shows its variation as numbered stones.
  await ann.locator(`[data-vertex="${move}"]`).hover();
  await ann.locator(`#review-board [data-pv="1:${move}"]`).waitFor();
  // The graph: a click at its right end goes to the last move of the main line.
  const graph = ann.locator('[data-testid=winrate-graph]');
  const box = await graph.boundingBox();
  await graph.click({ position: { x: box.width - 2, y: box.height / 2 } });
  await where(ann, 'Move 5 (B C3)');
  await where(bob, 'Move 5 (B C3)');
  // The territory, on demand, where stones stand.
  assert.equal(await ann.locator('#review-board .ownership').count(), 0);
  await ann.locator('#ownership').check();
  await ann.locator('#review-board .ownership rect').first().waitFor();
  assert.equal(await ann.locator('#winrate polyline.rating').getAttribute('data-points'), '6');
  assert.equal(await ann.locator('#winrate polyline.lead').getAttribute('data-points'), '6');
  const errors = await ann.locator('.toast.error').allTextContents();
  assert.equal(errors.length, 0, `no error on the way: ${errors.join(' | ')}`);
  await shot(ann, 'review-analysed-desktop');
});
