// Four languages in the browser (issue 29 item 9): the browser's own language decides until the
// player picks one from the menu, which is remembered across a reload; the lobby, a game page
// and a server error all read in that language. And the polish of item 8: no stale toasts on an
// old game, the quick-match menus inside their panel at 1280 px, the games table on a phone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { haveBrowser, session, newPage, register, act, shot, call } from './helpers.mjs';
import en from '../js/lang-en.js';
import ko from '../js/lang-ko.js';
import ja from '../js/lang-ja.js';
import zh from '../js/lang-zh.js';

const CATALOGUES = { ko, ja, zh };
const LOCALES = { ko: 'ko-KR', ja: 'ja-JP', zh: 'zh-CN' };


/** A wrong password on the login form: the error toast's text. */
async function wrongPassword(page, url) {
  await page.goto(`${url}/#/login`);
  const f = page.locator('#login');
  await f.locator('input[name=username]').fill('nobody');
  await f.locator('input[name=password]').fill('wrong-password');
  await f.locator('button[type=submit]').click();
  return page.locator('.toast.error').first().textContent();
}

/** Ann (on `page`) and a partner start a 9×9 game; returns its id, Ann on its page. */
async function gameFor(page, partner, url) {
  const room = await call(partner, 'POST', '/api/rooms', { size: 9, rules: 'japanese', parity: 'odd', time: { system: 'none' } });
  const joined = await call(page, 'POST', `/api/rooms/${room.id}/join`, { guess: 'odd' });
  await page.goto(`${url}/#/game/${joined.game_id}`);
  await page.locator('svg.board').waitFor();
  return joined;
}

for (const [code, cat] of Object.entries(CATALOGUES)) {
  test(`the browser's language ${LOCALES[code]}: login, an error, the lobby and a game in it`, { timeout: 90_000 }, async (t) => {
    if (!haveBrowser(t)) return;
    const { server, browser } = await session(t);
    const page = await newPage(browser, undefined, LOCALES[code]);
    await page.goto(`${server.url}/#/login`);
    assert.equal(await page.locator('#login h2').textContent(), cat['auth.log_in']);
    assert.equal(await page.evaluate(() => document.documentElement.lang), code);
    // A server error code, in the player's words.
    assert.equal(await wrongPassword(page, server.url), cat['error.bad_credentials']);
    await register(page, server.url, 'ann', '5k');
    assert.equal(await page.locator('#qm-h').textContent(), cat['lobby.quick_match']);
    assert.equal(await page.locator('nav a[href="#/"]').textContent(), cat['nav.lobby']);
    assert.match(await page.locator('[data-testid=who]').textContent(), new RegExp(cat['rank.kyu'].replace('{n}', '5')));
    // A game page.
    const partner = await newPage(browser);
    await register(partner, server.url, 'bob', '5k');
    const joined = await gameFor(page, partner, server.url);
    assert.equal(await page.locator('[data-action=pass]').textContent(), cat['game.pass']);
    assert.equal(await page.locator('[data-action=resign]').textContent(), cat['game.resign']);
    assert.match(await page.locator('[data-testid=terms]').textContent(), new RegExp(cat['rules.japanese']));
    const annBlack = joined.game.black.username === 'ann';
    const status = await page.locator('#status').textContent();
    assert.equal(status, annBlack ? cat['game.your_move'] : cat['game.to_move'].replace('{name}', 'bob'));
    // A move out of turn: the server's code, in words.
    if (annBlack) await act(page, { type: 'move', game: joined.game_id, point: 'E5' });
    await page.locator('#status', { hasText: cat['game.to_move'].replace('{name}', 'bob') }).waitFor();
    const refused = await page.evaluate(async (game) => {
      const { Socket } = await import('/js/socket.js');
      const s = new Socket({ onStatus: () => {}, onError: () => {} });
      await new Promise((ok) => { const i = setInterval(() => { if (s.ws.readyState === 1) { clearInterval(i); ok(); } }, 20); });
      try {
        await s.request({ type: 'move', game, point: 'D4' });
        return 'accepted';
      } catch (e) {
        return e.message;
      } finally {
        s.close();
      }
    }, joined.game_id);
    assert.equal(refused, cat['error.not_your_turn']);
    // It stays after a reload.
    await page.reload();
    await page.locator('[data-action=pass]').waitFor();
    assert.equal(await page.locator('[data-action=pass]').textContent(), cat['game.pass']);
    await shot(page, `language-${code}-game`);
  });
}

test('the language menu switches without a reload and is remembered', { timeout: 60_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t);
  const page = await newPage(browser);
  await register(page, server.url, 'ann', '5k');
  assert.equal(await page.locator('#qm-h').textContent(), en['lobby.quick_match']);
  const before = await page.evaluate(() => performance.timeOrigin);
  for (const [code, cat] of Object.entries(CATALOGUES)) {
    await page.locator('[data-testid=language]').selectOption(code);
    await page.locator('#qm-h', { hasText: cat['lobby.quick_match'] }).waitFor();
    assert.equal(await page.locator('nav a[href="#/"]').textContent(), cat['nav.lobby']);
  }
  assert.equal(await page.evaluate(() => performance.timeOrigin), before, 'no reload');
  // The choice beats the browser's English after a reload.
  await page.reload();
  await page.locator('#qm-h', { hasText: zh['lobby.quick_match'] }).waitFor();
  assert.equal(await page.locator('[data-testid=language]').inputValue(), 'zh');
  await page.locator('[data-testid=language]').selectOption('en');
  await page.locator('#qm-h', { hasText: en['lobby.quick_match'] }).waitFor();
});

test('only the chosen language is loaded: Korean fetches lang-ko.js, not Japanese or Chinese', { timeout: 60_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t);
  const page = await newPage(browser, undefined, 'ko-KR');
  const fetched = [];
  page.on('request', (r) => {
    const m = /\/js\/(lang-[a-z]+\.js)$/.exec(new URL(r.url()).pathname);
    if (m) fetched.push(m[1]);
  });
  const count = (file) => fetched.filter((f) => f === file).length;
  await page.goto(`${server.url}/#/login`);
  // The first page is drawn in Korean: the catalogue came before it.
  assert.equal(await page.locator('#login h2').textContent(), ko['auth.log_in']);
  assert.deepEqual([...new Set(fetched)].sort(), ['lang-en.js', 'lang-ko.js'], 'English (the fallback) and Korean only');
  await register(page, server.url, 'ann', '5k');
  fetched.length = 0;
  // Switching loads the new catalogue before the page is drawn again, and that one alone.
  await page.locator('[data-testid=language]').selectOption('ja');
  await page.locator('#qm-h', { hasText: ja['lobby.quick_match'] }).waitFor();
  assert.equal(await page.locator('nav a[href="#/"]').textContent(), ja['nav.lobby']);
  assert.equal(count('lang-ja.js'), 1);
  assert.equal(count('lang-zh.js'), 0);
  // Back to Korean: the catalogue is there already.
  await page.locator('[data-testid=language]').selectOption('ko');
  await page.locator('#qm-h', { hasText: ko['lobby.quick_match'] }).waitFor();
  assert.equal(count('lang-ko.js'), 0);
  assert.equal(count('lang-zh.js'), 0);
});

test('polish: no stale toasts on an old game, menus inside their panel, the phone games table', { timeout: 90_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t);
  const ann = await newPage(browser, { width: 1280, height: 800 });
  const bob = await newPage(browser);
  await register(ann, server.url, 'ann', '5k');
  await register(bob, server.url, 'bob', '5k');
  // At 1280 px every quick-match field stays inside its panel.
  const panel = await ann.locator('#quick').boundingBox();
  for (const sel of ['select[name=speed]', 'select[name=rules]', 'select[name=min_rank]', 'select[name=max_rank]', 'select[name=bot_after_s]', '#qm-go']) {
    const b = await ann.locator(`#quick ${sel}`).boundingBox();
    assert.ok(b.x >= panel.x && b.x + b.width <= panel.x + panel.width + 0.5, `${sel} (${b.x}+${b.width}) leaves the panel (${panel.x}+${panel.width})`);
  }
  // A game with a take-back asked and answered, then resigned; chat after it.
  const room = await call(bob, 'POST', '/api/rooms', { size: 9, rules: 'japanese', parity: 'odd', time: { system: 'none' }, take_back: true });
  const joined = await call(ann, 'POST', `/api/rooms/${room.id}/join`, { guess: 'odd' });
  const id = joined.game_id;
  const [black, white] = joined.game.black.username === 'ann' ? [ann, bob] : [bob, ann];
  for (const [b, w] of [['C3', 'G7'], ['C4', 'G6'], ['C5', 'G5']]) {
    await act(black, { type: 'move', game: id, point: b });
    await act(white, { type: 'move', game: id, point: w });
  }
  await act(black, { type: 'takeback', game: id });
  await act(white, { type: 'takeback_answer', game: id, accept: false });
  await act(white, { type: 'chat', game: id, text: 'good game' });
  await act(white, { type: 'resign', game: id });
  // Opening the finished game replays its events (the chat shows) but pops no old news.
  for (const p of [ann, bob]) {
    await p.goto(`${server.url}/#/game/${id}`);
    await p.locator('[data-testid=result]').waitFor();
    await p.locator('#chat p', { hasText: 'good game' }).waitFor();
    assert.equal(await p.locator('[data-testid=toast]').count(), 0, 'no toast from the game\'s history');
  }
  // Several games in the list; on a phone the table scrolls inside its box, the page does not.
  await ann.setViewportSize({ width: 390, height: 844 });
  await ann.goto(`${server.url}/#/user/ann`);
  await ann.locator('[data-testid=games] tbody tr').first().waitFor();
  const fit = await ann.evaluate(() => {
    const box = document.querySelector('[data-testid=games-scroll]');
    const style = getComputedStyle(box);
    const r = box.getBoundingClientRect();
    return { page: document.documentElement.scrollWidth, w: innerWidth, scrolls: style.overflowX === 'auto' || style.overflowX === 'scroll', boxRight: r.right, wide: box.scrollWidth > box.clientWidth };
  });
  assert.ok(fit.page <= fit.w, `the page is ${fit.page - fit.w}px wider than the phone`);
  assert.ok(fit.boxRight <= fit.w, 'the table\'s box ends inside the screen');
  assert.ok(!fit.wide || fit.scrolls, 'a table wider than its box scrolls');
  await shot(ann, 'games-table-phone');
});
