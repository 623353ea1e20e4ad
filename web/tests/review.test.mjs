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
  const errors = await ann.locator('.toast.error').allTextContents();
  assert.equal(errors.length, 1, `no other error on the way: ${errors.join(' | ')}`);
  // The export keeps the variation and the comment.
  const sgf = await ann.evaluate(async (id) => (await fetch(`/api/reviews/${id}/sgf`)).text(), id);
  assert.match(sgf.replace(/\n/g, ''), /\(;W\[cc\];B\[gg\];W\[gc\];B\[cg\]\)\(;W\[gc\]C\[the 3-4 point instead\]\)/);
  // The analysis: a progress bar, then Black's win rate along the game and the best moves.
  await ann.locator('[data-nav=first]').click();
  await ann.locator('#analyse').click();
  await ann.getByText('Analyse again').waitFor({ timeout: 120_000 });
  assert.equal(await ann.locator('#winrate polyline').getAttribute('data-points'), '6');
  await bob.locator('#winrate polyline').waitFor();
  await ann.locator('[data-testid=best]').getByText(/Black wins \d+% · best for black: [A-T]\d+/).waitFor();
  await shot(ann, 'review-desktop');
  await bob.setViewportSize(PHONE);
  assert.ok(await bob.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no sideways scroll on a phone');
  await shot(bob, 'review-phone');
});
