// Puzzles (issue 43) on a phone: from the lessons' page to #/puzzles, a puzzle of the mined
// files answered on the board by touch: a wrong try answered by the defence's refutation and
// the learner's puzzle rating going down, "try again", the right move solving it; the page
// fits 360 px; the next puzzle comes at the learner's level; and the same in Korean.
//
// Deterministic: the puzzle and its answers are read from learn/puzzles (the first beginner
// puzzle with one right move and a refuted wrong try); no timing is asserted.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { haveBrowser, session, webFromDisk, shot } from './helpers.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

const PHONE_360 = { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true };
const LETTERS = 'ABCDEFGHJKLMNOPQRST';

/** The GTP vertex of an SGF point on an n x n board. */
const vertex = (n, p) => `${LETTERS[p.charCodeAt(0) - 97]}${n - (p.charCodeAt(1) - 97)}`;

/** A puzzle whose right try ends it and whose first wrong try is refuted: { id, right, wrong, reply }. */
function simplePuzzle() {
  const text = readFileSync(join(root, 'learn', 'puzzles', 'beginner.sgf'), 'utf8');
  for (const tree of text.split(/\n(?=\(;GM)/)) {
    const id = /ID\[([^\]]+)\]/.exec(tree)?.[1];
    const n = Number(/SZ\[(\d+)\]/.exec(tree)?.[1]);
    const right = [...tree.matchAll(/;[BW]\[([a-s]{2})\]TE\[1\]/g)];
    const ends = /;[BW]\[([a-s]{2})\]TE\[1\]\)/.exec(tree);
    const wrong = /;[BW]\[([a-s]{2})\]BM\[1\];[BW]\[([a-s]{2})\]\)/.exec(tree);
    if (id && n && right.length === 1 && ends && wrong) {
      return { id, right: vertex(n, ends[1]), wrong: vertex(n, wrong[1]), reply: vertex(n, wrong[2]) };
    }
  }
  throw new Error('no one-move puzzle in beginner.sgf');
}

async function phone(browser, locale = 'en-US') {
  const context = await browser.newContext({ ...PHONE_360, locale });
  await webFromDisk(context);
  const page = await context.newPage();
  page.on('pageerror', (e) => { throw new Error(`page error: ${e.message}`); });
  return page;
}

/** Taps `v` and waits for the verdict; returns the feedback's text. */
async function attempt(page, v) {
  const answered = page.waitForResponse((r) => r.url().includes('/try') && r.request().method() === 'POST');
  await page.locator(`svg.board [data-vertex="${v}"]`).tap();
  await answered;
  const fb = page.locator('[data-testid=feedback]');
  await fb.filter({ hasText: /\S/ }).waitFor();
  return fb.textContent();
}

async function fitsPhone(page, what) {
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 360, `${what}: the page is ${wide} px wide`);
  const small = await page.evaluate(() => [...document.querySelectorAll('main button, main a.button')]
    .filter((e) => e.getClientRects().length)
    .map((e) => e.getBoundingClientRect())
    .filter((r) => r.width < 43.5 || r.height < 43.5).length);
  assert.equal(small, 0, `${what}: a control under 44 px`);
}

const rating = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('tengen.puzzles') || '{}').rating?.rating);

test('a learner on a phone solves a mined puzzle after a refuted wrong try, and the rating moves', { timeout: 120_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t);
  const page = await phone(browser);
  const p = simplePuzzle();

  await page.goto(`${server.url}/#/learn`);
  await page.locator('[data-testid=puzzles-link]').tap();
  await page.locator('[data-testid=prompt]').waitFor();
  await fitsPhone(page, 'the next puzzle');

  await page.goto(`${server.url}/#/puzzles/${p.id}`);
  await page.waitForFunction((id) => location.hash.endsWith(id), p.id);
  await page.locator('[data-testid=prompt]').filter({ hasText: /to play/ }).waitFor();
  assert.match(await attempt(page, p.wrong), /^Not this one/);
  // The attempt counted as a miss, kept in this browser.
  const after = await rating(page);
  assert.ok(after > 0, 'a rating is kept in the browser');
  await fitsPhone(page, 'a wrong try');
  await shot(page, 'puzzle-wrong-360');
  await page.locator('#again').tap();
  assert.match(await attempt(page, p.right), /^Solved!/);
  assert.equal(await rating(page), after, 'a retry does not move the rating again');
  await page.locator('[data-testid=puzzle-rating]').filter({ hasText: /rating/ }).waitFor();
  await shot(page, 'puzzle-solved-360');

  // The next puzzle, at the learner's level.
  await page.locator('[data-testid=next-puzzle]').tap();
  await page.locator('[data-testid=feedback]:empty').waitFor({ state: 'attached' });
  await page.locator('[data-testid=prompt]').waitFor();

  // In Korean.
  const ko = await phone(browser, 'ko-KR');
  await ko.goto(`${server.url}/#/puzzles/${p.id}`);
  await ko.locator('[data-testid=prompt]').filter({ hasText: /차례/ }).waitFor();
  assert.match(await attempt(ko, p.right), /^풀었습니다/);
});
