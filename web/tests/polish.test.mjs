// The game page, polished: a whole game between a desktop browser (1280x800) and a phone
// (390x844) checks the terms in words, the move number and list, the pass notice, the move sound,
// the stone style and coordinates settings (kept across a reload), the side panel's layout, the
// result in words with the count, and the move stepper's SVG icons. Every page fits 390 px and
// loads without failed requests; correspondence clocks count days and show vacations.
// Screenshots go to web/test-output/polish-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { haveBrowser, session, newPage, register, stones, shot, act, call } from './helpers.mjs';

const DESK = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };



/** Ann opens a room with `time`, Bob joins; both pages on the game. Returns the pages by colour. */
async function startGame(ann, bob, url, time, extra = {}) {
  const room = await call(ann, 'POST', '/api/rooms', { size: 9, rules: 'japanese', parity: 'odd', time, ...extra });
  const joined = await call(bob, 'POST', `/api/rooms/${room.id}/join`, { guess: 'odd' });
  const id = joined.game_id;
  for (const p of [ann, bob]) {
    await p.goto(`${url}/#/game/${id}`);
    await p.locator('svg.board').waitFor();
  }
  const blackIsBob = joined.game.black.username === 'bob';
  return { id, black: blackIsBob ? bob : ann, white: blackIsBob ? ann : bob, game: joined.game };
}

async function noOverflow(page, what) {
  const { sw, w } = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, w: innerWidth }));
  assert.ok(sw <= w, `${what}: the page is ${sw - w}px wider than the ${w}px screen`);
}

/** The boxes of selectors, for layout checks. */
async function boxes(page, ...selectors) {
  return Promise.all(selectors.map((s) => page.locator(s).first().boundingBox()));
}

/** The clocks fit their cards on one line each. */
async function clocksOnOneLine(page, what) {
  for (const side of ['black', 'white']) {
    const r = await page.locator(`[data-clock=${side}]`).evaluate((el) => {
      const main = el.querySelector('.main').getBoundingClientRect();
      const extra = el.querySelector('.extra').getBoundingClientRect();
      return { h: el.getBoundingClientRect().height, mainH: main.height, sameLine: !extra.width || Math.abs(main.bottom - extra.bottom) < 6, clipped: el.scrollWidth > el.clientWidth + 1, text: el.textContent };
    });
    assert.ok(r.text.length > 0, `${what}: ${side}'s clock shows`);
    assert.ok(r.sameLine && r.h < r.mainH * 1.6, `${what}: ${side}'s clock "${r.text}" wraps (height ${r.h})`);
    assert.ok(!r.clipped, `${what}: ${side}'s clock "${r.text}" is cut off`);
  }
}

test('a whole game on desktop and phone: terms, moves, passes, sound, settings, result and count', { timeout: 240_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t);
  const ann = await newPage(browser, DESK);
  const bob = await newPage(browser, PHONE);
  await register(ann, server.url, 'ann', '3k');
  await register(bob, server.url, 'bob', '3k');
  const { id, black, white } = await startGame(ann, bob, server.url, { system: 'byoyomi', main_ms: 1_200_000, periods: 5, period_ms: 30_000 });
  const pages = [ann, bob];
  const name = (p) => (p === ann ? 'desktop' : 'phone');

  // The terms in words, the move number, the clocks on one line, Pass and Resign on one line.
  for (const p of pages) {
    const terms = await p.locator('[data-testid=terms]').textContent();
    assert.match(terms, /^9×9 · Japanese rules · Komi \d+(\.5)?$/);
    assert.equal(await p.locator('[data-testid=time-setting]').textContent(), 'Byo-yomi 20 min + 5×30 s');
    assert.equal(await p.locator('[data-testid=move-number]').textContent(), 'Move 0');
    assert.match(await p.locator('[data-clock=black]').textContent(), /^(20:00|19:5\d) \+ 5×30s$/);
    await clocksOnOneLine(p, name(p));
    const [pass, resign, count] = await boxes(p, '[data-action=pass]', '[data-action=resign]', '[data-action=count]');
    assert.ok(Math.abs(pass.y - resign.y) < 2, `${name(p)}: Resign is on Pass's line (${pass.y} vs ${resign.y})`);
    assert.ok(resign.x > pass.x + pass.width, `${name(p)}: Resign is right of Pass`);
    assert.ok(count.y > pass.y, `${name(p)}: the requests are below`);
    assert.equal(await p.locator('#movelist li.empty').count(), 1, 'no moves yet');
    await noOverflow(p, `game page, ${name(p)}`);
  }

  // Settings: Ann turns the move sound on (the toggle clicks once); Bob leaves it off.
  assert.equal(await ann.locator('#sound').isChecked(), false, 'the sound is off by default');
  await ann.locator('#sound').check();
  await ann.waitForFunction(() => document.querySelector('.game').dataset.sounds === '1');

  // Black plays, White plays, Black passes: a notice says so, on both pages.
  await black.getByText('Your move.').waitFor();
  await black.locator('[data-vertex=C3]').click();
  for (const p of pages) await p.locator('[data-stone="C3:b"]').waitFor();
  await ann.waitForFunction(() => Number(document.querySelector('.game').dataset.sounds) >= 2);
  await white.getByText('Your move.').waitFor();
  await white.locator('[data-vertex=G7]').click();
  for (const p of pages) await p.locator('[data-stone="G7:w"]').waitFor();
  await black.getByText('Your move.').waitFor();
  await black.locator('[data-action=pass]').click();
  const blackName = black === bob ? 'bob' : 'ann';
  for (const p of pages) {
    const notice = p.locator('[data-testid=notice]');
    await notice.waitFor();
    assert.match(await notice.textContent(), new RegExp(`^Black \\(${blackName}\\) passed\\.`));
    assert.equal(await p.locator('[data-testid=move-number]').textContent(), 'Move 3');
  }
  assert.match(await white.locator('[data-testid=notice]').textContent(), /Pass too to end the game/);
  await shot(ann, 'polish-pass-desktop');
  await shot(bob, 'polish-pass-phone');
  assert.equal(await bob.locator('.game').getAttribute('data-sounds'), '0', 'no sound where it is off');
  assert.ok(Number(await ann.locator('.game').getAttribute('data-sounds')) >= 3, 'a click for each move');

  // The move list: number, colour and vertex of each move, "pass" as such.
  for (const p of pages) {
    const items = await p.locator('#movelist .move').evaluateAll((els) => els.map((e) => [e.dataset.move, e.dataset.color, e.textContent, e.getAttribute('aria-label')]));
    assert.deepEqual(items, [
      ['1', 'black', '1C3', 'Move 1: Black C3'],
      ['2', 'white', '2G7', 'Move 2: White G7'],
      ['3', 'black', '3Pass', 'Move 3: Black Pass'],
    ]);
    const list = await p.locator('#movelist').evaluate((el) => getComputedStyle(el).overflowY);
    assert.equal(list, 'auto', 'the move list scrolls');
  }

  // White plays on: the notice goes.
  await white.getByText('Your move.').waitFor();
  await white.locator('[data-vertex=E5]').click();
  for (const p of pages) {
    await p.locator('[data-stone="E5:w"]').waitFor();
    await p.locator('[data-testid=notice]').waitFor({ state: 'hidden' });
  }

  // Shaded stones: gradients defined once, a shadow under each stone; flat is a setting kept
  // across a reload, and so are the coordinates.
  for (const p of pages) {
    assert.equal(await p.locator('svg.board defs radialGradient').count(), 3);
    assert.equal(await p.locator('svg.board').getAttribute('class'), 'board shaded');
    assert.equal(await p.locator('[data-stone="C3:b"]').getAttribute('fill'), 'url(#tengen-stone-b)');
    assert.equal(await p.locator('[data-stone="G7:w"]').getAttribute('fill'), 'url(#tengen-stone-w)');
    assert.equal(await p.locator('svg.board .shadow').count(), 3);
  }
  await shot(ann, 'polish-shaded-desktop');
  await ann.locator('#stones').selectOption('flat');
  await ann.locator('#coords').uncheck();
  const flat = async (p) => {
    assert.equal(await p.locator('svg.board .shadow').count(), 0);
    assert.equal(await p.locator('[data-stone="C3:b"]').getAttribute('fill'), null);
    // Looked up and read at once: the stones are redrawn on every change.
    assert.equal(await p.evaluate(() => getComputedStyle(document.querySelector('[data-stone="C3:b"]')).fill), 'rgb(17, 17, 17)');
    assert.equal(await p.evaluate(() => getComputedStyle(document.querySelector('svg.board .coord')).display), 'none');
    assert.equal(await p.locator('svg.board').getAttribute('viewBox'), '-0.62 -0.62 9.24 9.24');
  };
  await flat(ann);
  await shot(ann, 'polish-flat-nocoords-desktop');
  await ann.reload();
  await ann.locator('[data-stone="C3:b"]').waitFor();
  await flat(ann);
  assert.equal(await ann.locator('#stones').inputValue(), 'flat');
  assert.equal(await ann.locator('#coords').isChecked(), false);
  assert.equal(await ann.locator('#sound').isChecked(), true, 'the sound setting is kept');
  await ann.locator('#stones').selectOption('shaded');
  await ann.locator('#coords').check();
  assert.equal(await ann.locator('svg.board .shadow').count(), 3);
  assert.equal(await ann.evaluate(() => getComputedStyle(document.querySelector('svg.board .coord')).display) !== 'none', true, 'the coordinates are back');
  // Bob's page kept its own (default) settings.
  assert.equal(await bob.locator('svg.board').getAttribute('class'), 'board shaded');

  // Two passes, the dead stones, the count accepted.
  await black.getByText('Your move.').waitFor();
  await black.locator('[data-action=pass]').click();
  await white.getByText('Your move.').waitFor();
  await white.locator('[data-action=pass]').click();
  for (const p of pages) await p.locator('[data-testid=score] table').waitFor();
  await shot(ann, 'polish-scoring-desktop');
  await shot(bob, 'polish-scoring-phone');
  for (const p of pages) await p.locator('[data-action=accept]').click();

  // After the game: the result in words, the count per side as the server gives it.
  const snap = await ann.evaluate(async (id) => (await fetch(`/api/games/${id}`)).json(), id);
  assert.equal(snap.end_reason, 'count');
  const [, who, margin] = /^([BW])\+(.*)$/.exec(snap.result);
  const words = `${who === 'B' ? 'Black' : 'White'} wins by ${margin} point${Number(margin) === 1 ? '' : 's'}`;
  for (const p of pages) {
    const result = p.locator('[data-testid=result]');
    await result.waitFor();
    assert.equal(await result.textContent(), words);
    assert.equal(await result.getAttribute('data-result'), snap.result);
    const table = p.locator('[data-testid=final-score] table');
    for (const key of ['territory', 'stones', 'prisoners', 'komi', 'total']) {
      for (const side of ['black', 'white']) {
        assert.equal(await table.locator(`tr[data-row=${key}] td[data-side=${side}]`).textContent(), String(snap.score[side][key]), `${key} of ${side}`);
      }
    }
    await noOverflow(p, `finished game, ${name(p)}`);
  }
  await shot(ann, 'polish-finished-desktop');
  await shot(bob, 'polish-finished-phone');

  // The stepper's icons are SVG with labels, no font glyphs; the move list navigates.
  for (const p of pages) {
    const nav = await p.locator('.stepper button').evaluateAll((els) => els.map((b) => ({ label: b.getAttribute('aria-label'), text: b.textContent.trim(), shapes: b.querySelectorAll('svg path, svg rect').length, w: b.querySelector('svg').getBoundingClientRect().width })));
    assert.deepEqual(nav.map((n) => n.label), ['First move', 'Previous move', 'Next move', 'Last move']);
    for (const n of nav) {
      assert.equal(n.text, '', `${n.label}: no text glyph`);
      assert.ok(n.shapes > 0 && n.w >= 12, `${n.label}: an icon is drawn`);
    }
    await p.locator('[aria-label="First move"]').click();
    assert.equal((await stones(p)).length, 0);
    assert.equal(await p.locator('[data-testid=move-number]').textContent(), 'Move 0 of 6');
    await p.locator('#movelist [data-move="3"]').click();
    assert.deepEqual(await stones(p), ['C3:b', 'G7:w']);
    assert.equal(await p.locator('#movelist [aria-current=step]').getAttribute('data-move'), '3');
    assert.equal(await p.locator('[data-testid=stepper-at]').textContent(), 'move 3 / 6');
    assert.match(await p.locator('[data-testid=notice]').textContent(), /^Black \((ann|bob)\) passed\.$/);
    await p.locator('[aria-label="Next move"]').click();
    assert.deepEqual(await stones(p), ['C3:b', 'E5:w', 'G7:w']);
    assert.equal(await p.locator('[data-testid=notice]').isVisible(), false);
  }
  await shot(ann, 'polish-review-desktop');
  await shot(bob, 'polish-review-phone');
});

test('every page fits 390 px and loads without failed requests or console errors', { timeout: 120_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t);
  for (const viewport of [PHONE, DESK]) {
    const page = await newPage(browser, viewport);
    const problems = [];
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
    page.on('requestfailed', (r) => problems.push(`failed: ${r.url()} ${r.failure()?.errorText}`));
    page.on('response', (r) => { if (r.status() >= 400) problems.push(`${r.status()}: ${r.url()}`); });
    const load = async (hash, ready, what) => {
      problems.length = 0;
      await page.goto(`${server.url}/${hash}`);
      await page.locator(ready).first().waitFor();
      await page.waitForLoadState('networkidle');
      await noOverflow(page, `${what} at ${viewport.width} px`);
      await shot(page, `polish-${what}-${viewport.width}`);
      return [...problems];
    };
    // The login page while logged out: the shell asks /api/session, which says "nobody" without
    // an error.
    assert.deepEqual(await load('#/login', '#register', 'login'), [], 'the login page loads cleanly');
    // The tab's icon is a data: image, so no /favicon.ico is asked for.
    assert.match(await page.locator('link[rel=icon]').getAttribute('href'), /^data:image\/svg\+xml,/);
    const user = viewport === PHONE ? 'phoebe_longname' : 'desmond';
    await register(page, server.url, user, '12k');
    assert.deepEqual(await load('#/', '#create', 'lobby'), [], 'the lobby loads cleanly');
    const { game_id: id } = await call(page, 'POST', '/api/bots/tengen-bot/play', { size: 19, color: 'black', time: { system: 'fischer', main_ms: 180_000, increment_ms: 5_000 } });
    assert.deepEqual(await load(`#/game/${id}`, '[data-testid=time-setting]', 'game'), [], 'the game page loads cleanly');
    assert.equal(await page.locator('[data-testid=time-setting]').textContent(), 'Fischer 3 min + 5 s');
    await clocksOnOneLine(page, `game at ${viewport.width} px`);
    assert.deepEqual(await load(`#/user/${user}`, 'h1, h2', 'user'), [], 'the user page loads cleanly');
    // The header at this width: one line, inside the screen.
    const header = await page.locator('header.top').evaluate((h) => ({ right: Math.max(...[...h.querySelectorAll('*')].map((e) => e.getBoundingClientRect().right)), w: innerWidth, h: h.getBoundingClientRect().height }));
    assert.ok(header.right <= header.w, `the header ends at ${header.right} of ${header.w} px`);
    assert.ok(header.h < 60, `the header is one line (${header.h} px)`);
    assert.deepEqual(await load('#/login', '#register', 'login-in'), [], 'the login page loads cleanly while logged in');
  }
});

test('correspondence clocks in days, a vacation shown, a resignation in words', { timeout: 120_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t);
  const ann = await newPage(browser, DESK);
  const bob = await newPage(browser, PHONE);
  await register(ann, server.url, 'ann', '3k');
  await register(bob, server.url, 'bob', '3k');
  const { black, white } = await startGame(ann, bob, server.url, { system: 'correspondence', per_move_ms: 3 * 86_400_000 });
  for (const p of [ann, bob]) {
    assert.equal(await p.locator('[data-testid=time-setting]').textContent(), '3 days a move (correspondence)');
    for (const side of ['black', 'white']) assert.match(await p.locator(`[data-clock=${side}]`).textContent(), /^(3d 0h|2d 23h)$/);
    assert.equal(await p.locator('[data-testid=vacation-black]').isVisible(), false);
    await clocksOnOneLine(p, 'correspondence');
  }
  // Black goes on vacation for a week: both pages say until when; Black's clock stands.
  await call(black, 'POST', '/api/me/vacation', { days: 7 });
  const until = Date.now() + 7 * 86_400_000;
  for (const p of [ann, bob]) {
    const away = p.locator('[data-testid=vacation-black]');
    await away.waitFor();
    const text = await away.textContent();
    const expected = await p.evaluate((ms) => new Date(ms).toLocaleString(undefined, { weekday: 'short', day: 'numeric', month: 'short' }).split(/,? /), until);
    assert.match(text, /^On vacation until /);
    for (const part of expected) assert.ok(text.includes(part.replace(/,$/, '')), `"${text}" has ${part}`);
    assert.equal(await p.locator('[data-testid=vacation-white]').isVisible(), false);
  }
  await shot(ann, 'polish-correspondence-desktop');
  await shot(bob, 'polish-correspondence-phone');
  // White resigns: the result says who won, in words; no count is shown.
  await act(white, { type: 'resign', game: Number(ann.url().match(/#\/game\/(\d+)/)[1]) });
  for (const p of [ann, bob]) {
    const r = p.locator('[data-testid=result]');
    await r.waitFor();
    assert.equal(await r.textContent(), 'Black wins by resignation');
    assert.equal(await p.locator('[data-testid=final-score]').count(), 0);
  }
});

test('time settings, results and day clocks in words', { timeout: 60_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t);
  const page = await newPage(browser, DESK);
  await page.goto(`${server.url}/#/login`);
  const got = await page.evaluate(async () => {
    const g = await import('/js/game.js');
    return {
      time: [
        { system: 'byoyomi', main_ms: 1_200_000, periods: 5, period_ms: 30_000 },
        { system: 'fischer', main_ms: 180_000, increment_ms: 5_000 },
        { system: 'fischer', main_ms: 259_200_000, increment_ms: 86_400_000, cap_ms: 1_209_600_000 },
        { system: 'correspondence', per_move_ms: 259_200_000 },
        { system: 'correspondence', per_move_ms: 86_400_000 },
        { system: 'canadian', main_ms: 600_000, stones: 25, period_ms: 300_000 },
        { system: 'absolute', main_ms: 5_400_000 },
        { system: 'none' },
      ].map(g.timeWords),
      results: [['W+9.5', 'count'], ['B+1', 'count'], ['B+R', 'resign'], ['W+T', 'time'], ['B+F', 'left'], ['0', 'count'], ['W+', 'rule'], ['Void', 'rule']].map(([r, why]) => g.resultWords(r, why)),
      days: [259_200_000, 2 * 86_400_000 + 23 * 3_600_000 + 1_000, 5 * 3_600_000 + 7 * 60_000, 125_000].map(g.dayClock),
    };
  });
  assert.deepEqual(got.time, [
    'Byo-yomi 20 min + 5×30 s',
    'Fischer 3 min + 5 s',
    'Fischer 3 days + 1 day, at most 14 days (correspondence)',
    '3 days a move (correspondence)',
    '1 day a move (correspondence)',
    'Canadian 10 min + 25 stones in 5 min',
    'Absolute 1 h 30 min',
    'No time limit',
  ]);
  assert.deepEqual(got.results, [
    'White wins by 9.5 points',
    'Black wins by 1 point',
    'Black wins by resignation',
    'White wins on time',
    'Black wins by forfeit',
    'Draw',
    'White wins by the first capture',
    'No result: the position repeated',
  ]);
  assert.deepEqual(got.days, ['3d 0h', '2d 23h', '5h 7m', '2:05']);
});
