// Every page on a phone (issue 39): each route, at 360 and 390 px with touch (and in Korean at
// 360), as a moderator who plays, organises and reviews. No page scrolls sideways and nothing
// shows past the right edge (what scrolls inside a box of its own, a long table or the
// variation tree, is cut by that box); the header's menu opens links inside the screen that a
// tap follows; every control on the page is at least 44 px both ways; on the game and review
// pages the board takes the screen's width and the panels stack under it. The review board of a 228-move game with a
// variation (its tree thousands of pixels wide) shows all 19 columns, its move list on the
// screen, and its chat's Send takes a tap.
//
// The exceptions to 44 px, each with its reason:
// - The board's intersections (SVG, not controls here): a 19x19 board at 390 px gives each
//   under 20 px; the board's own cursor and the confirm-move setting are for that.
// - The variation tree's nodes (SVG circles): a picture of the tree; the move list, the
//   variation buttons and First/Back/Next/Last reach the same moves at 44 px.
// - Links inside a sentence (words run around them in their paragraph, heading or cell; a
//   separator such as " · " is no sentence): their line of text is their target, as WCAG's
//   target-size criteria exempt inline targets.
// A checkbox's target is its label, which a tap anywhere on toggles it.
// Screenshots: web/test-output/phone-ROUTE-WIDTH-LOCALE.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { haveBrowser, session, newPage, register, shot, webFromDisk, act, PASSWORD } from './helpers.mjs';

// English at both widths; Korean, Japanese and Chinese at the narrower, for a language's short
// words (a checkbox's label of two letters is under 44 px wide, where English's is not).
const PASSES = [[360, 'en-US'], [390, 'en-US'], [360, 'ko-KR'], [360, 'ja-JP'], [360, 'zh-CN']];
const MIN = 44;

/** POST from the page, with its session cookie; the JSON answer. */
async function call(page, path, body) {
  return page.evaluate(async ([path, body]) => {
    const r = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
    const text = await r.text();
    if (!r.ok) throw new Error(`POST ${path}: ${r.status} ${text}`);
    return text ? JSON.parse(text) : null;
  }, [path, body]);
}

/** A 228-move game that never captures: Black fills the top six lines, White the bottom six. */
function longRecord() {
  const L = 'abcdefghijklmnopqrs';
  const moves = [];
  for (let i = 0; i < 114; i++) {
    moves.push(`;B[${L[i % 19]}${L[Math.floor(i / 19)]}]`, `;W[${L[i % 19]}${L[18 - Math.floor(i / 19)]}]`);
  }
  // A variation at move 3 and a comment, so the tree has a second row and the comment shows.
  return `(;GM[1]FF[4]SZ[19]KM[6.5]PB[ann]PW[bob]${moves[0]}C[a long game on a small screen]${moves[1]}(${moves.slice(2).join('')})(;B[jj]))`;
}

/** Ann (a moderator) and Bob: a live and a finished 19x19 game with chat, a review, a running
 * tournament, messages and a report. Returns the routes to visit with what shows each is ready. */
async function world(server, browser) {
  const ann = await newPage(browser);
  const bob = await newPage(browser);
  await register(ann, server.url, 'ann', '3k');
  await register(bob, server.url, 'bob_with_a_long_name', '4k');
  execFileSync(server.bin, ['admin', 'set-role', 'ann', 'moderator', '--db', server.db]);
  const game = async () => {
    const room = await call(ann, '/api/rooms', { size: 19, rules: 'japanese', parity: 'odd' });
    const joined = await call(bob, `/api/rooms/${room.id}/join`, { guess: 'odd' });
    const annBlack = joined.game.black.username === 'ann';
    return { id: joined.game_id, black: annBlack ? ann : bob, white: annBlack ? bob : ann };
  };
  const live = await game();
  for (const [who, point] of [['black', 'D4'], ['white', 'Q16'], ['black', 'Q4']]) await act(live[who], { type: 'move', game: live.id, point });
  await act(bob, { type: 'chat', game: live.id, text: 'good luck, have fun' });
  await act(ann, { type: 'chat', game: live.id, text: 'you too' });
  const done = await game();
  for (const [who, point] of [['black', 'C3'], ['white', 'R17'], ['black', 'pass'], ['white', 'K10']]) {
    await act(done[who], point === 'pass' ? { type: 'pass', game: done.id } : { type: 'move', game: done.id, point });
  }
  await act(done.black, { type: 'resign', game: done.id });

  const review = (await call(ann, '/api/reviews', { sgf: longRecord() })).id;
  await call(bob, `/api/reviews/${review}/chat`, { text: 'why not the 3-4 point?' });

  const event = (await call(ann, '/api/tournaments', { name: 'Phone cup, a name long enough to wrap', system: 'swiss', rounds: 2, size: 19 })).id;
  await call(ann, `/api/tournaments/${event}/register`);
  await call(bob, `/api/tournaments/${event}/register`);
  await call(ann, `/api/tournaments/${event}/start`);

  await call(bob, '/api/messages', { to: 'ann', text: 'a message with a rather long word: supercalifragilisticexpialidocious' });
  await call(bob, '/api/reports', { user: 'ann', game: live.id, reason: 'slow play' });
  await ann.context().close();
  await bob.context().close();

  return [
    ['lobby', '#/', '#create'],
    ['game-live', `#/game/${live.id}`, '[data-action=pass]'],
    ['game-finished', `#/game/${done.id}`, '[data-testid=result]'],
    ['review', `#/review/${review}`, '#moves button'],
    ['tournaments', '#/tournaments', '[data-testid=t-running]'],
    ['tournament', `#/tournament/${event}`, '[data-testid=standings], .pairings'],
    ['user-own', '#/user/ann', '[data-testid=games]'],
    ['user-other', '#/user/bob_with_a_long_name', '#report-user'],
    ['messages', '#/messages', '[data-testid=conversations] a'],
    ['thread', '#/messages/bob_with_a_long_name', '[data-testid=thread] li'],
    ['moderation', '#/moderation', '[data-report]'],
    ['learn', '#/learn', '[data-testid=lessons] li'],
    ['lesson', '#/learn/02-capture/0', 'svg.board'],
    ['lesson-game', '#/learn/04-first-capture/0', '[data-testid=fc-level]'],
    ['lesson-count', '#/learn/10-counting/0', '#count-form'],
    ['rules', '#/rules', '[data-preset]'],
  ];
}

/**
 * What is wrong with the page on this phone: a page wider than the screen, elements showing
 * past its edges (cut by the boxes they scroll in), and controls under 44 px to tap.
 */
function audit([min, W]) {
  // W is the screen's width as the test set it: innerWidth is not, as a phone's browser zooms
  // out to show a page wider than the screen whole.
  const problems = [];
  const name = (e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${e.className && typeof e.className === 'string' ? `.${e.className.trim().split(/\s+/).join('.')}` : ''}${e.dataset.testid ? `[${e.dataset.testid}]` : ''} "${(e.textContent || e.getAttribute('aria-label') || e.getAttribute('placeholder') || '').trim().slice(0, 30)}"`;
  const shows = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  if (document.documentElement.scrollWidth > W) problems.push(`the page is ${document.documentElement.scrollWidth} px wide`);
  // The part of an element that shows: cut by each box between it and <main> that does not let
  // its content overflow (a scrolling list, a table's scroller, a cut-off name).
  const shown = (e) => {
    const r = e.getBoundingClientRect();
    let { left, right } = r;
    for (let a = e.parentElement; a && a !== document.body && a.id !== 'main'; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== 'visible') {
        const ar = a.getBoundingClientRect();
        left = Math.max(left, ar.left);
        right = Math.min(right, ar.right);
      }
    }
    return { left, right };
  };
  // Told once for the outermost element past the edge, not for each part inside it.
  const past = new Set();
  for (const e of document.body.querySelectorAll('*')) {
    if (!shows(e)) continue;
    const s = shown(e);
    if (!(s.right > s.left && (s.left < -0.5 || s.right > W + 0.5))) continue;
    past.add(e);
    if (!past.has(e.parentElement)) problems.push(`${name(e)} shows from ${Math.round(s.left)} to ${Math.round(s.right)} px`);
  }
  // Every control, or the label a checkbox sits in. Links inside a sentence are exempt: text
  // runs beside them in their paragraph or heading.
  const inSentence = (e) => {
    if (e.tagName !== 'A' || getComputedStyle(e).display !== 'inline') return false;
    return [...e.parentElement.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && /[\p{L}\p{N}]/u.test(n.textContent));
  };
  const controls = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [tabindex]:not([tabindex="-1"])';
  const seen = new Set();
  for (const e of document.querySelectorAll(controls)) {
    if (!shows(e) || inSentence(e)) continue;
    const target = e.matches('input[type=checkbox], input[type=radio]') && e.closest('label') ? e.closest('label') : e;
    if (seen.has(target)) continue;
    seen.add(target);
    const r = target.getBoundingClientRect();
    if (r.width < min - 0.5 || r.height < min - 0.5) problems.push(`${name(target)} is ${Math.round(r.width)}x${Math.round(r.height)} px to tap`);
  }
  return problems;
}

/** On the game and review pages: the board is inside the screen and takes its width, the
 * panels stack under it. */
async function boardAndPanels(page, width) {
  const problems = [];
  const b = await page.locator('svg.board').boundingBox();
  if (b.x < 0 || b.x + b.width > width + 0.5) problems.push(`the board runs from ${b.x} to ${b.x + b.width}`);
  if (b.width < width - 24) problems.push(`the board is ${b.width} px wide, not the screen's ${width}`);
  const side = await page.locator('.game > aside').boundingBox();
  if (side.y < b.y + b.height - 1) problems.push(`the panel starts at ${side.y}, beside the board (which ends at ${b.y + b.height})`);
  if (side.x < 0 || side.x + side.width > width + 0.5) problems.push(`the panel runs from ${side.x} to ${side.x + side.width}`);
  return problems;
}

test('every page fits a phone: no sideways scroll, the header in reach, 44 px controls, the board over the panels', { timeout: 300_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t);
  const routes = await world(server, browser);
  const problems = [];
  for (const [width, locale] of PASSES) {
    const context = await browser.newContext({ viewport: { width, height: 780 }, hasTouch: true, isMobile: true, locale });
    await webFromDisk(context);
    const page = await context.newPage();
    page.on('pageerror', (e) => { throw new Error(`page error: ${e.message}`); });

    // The welcome a first visit gets, logged out.
    await page.goto(`${server.url}/`);
    await page.locator('[data-testid=way-learn]').waitFor();
    for (const p of await page.evaluate(audit, [MIN, width])) problems.push(`welcome at ${width} px, ${locale}: ${p}`);
    await shot(page, `phone-welcome-${width}-${locale}`);

    // The login page, logged out; then Ann logs in from it with taps.
    await page.goto(`${server.url}/#/login`);
    await page.locator('#login').waitFor();
    const at = `${width} px, ${locale}`;
    for (const p of await page.evaluate(audit, [MIN, width])) problems.push(`login at ${at}: ${p}`);
    await shot(page, `phone-login-${width}-${locale}`);
    await page.locator('#login input[name=username]').fill('ann');
    await page.locator('#login input[name=password]').fill(PASSWORD);
    await page.locator('#login button[type=submit]').tap();
    await page.locator('[data-testid=who]').waitFor({ state: 'attached' });

    for (const [what, hash, ready] of routes) {
      const where = `${what} at ${at}`;
      await page.goto(`${server.url}/${hash}`);
      await page.locator(ready).first().waitFor();
      // Late parts (the lobby's lists, the game's chat) have landed once the page is still.
      await page.waitForTimeout(300);
      for (const p of await page.evaluate(audit, [MIN, width])) problems.push(`${where}: ${p}`);
      if (what.startsWith('game') || what === 'review') for (const p of await boardAndPanels(page, width)) problems.push(`${where}: ${p}`);
      await shot(page, `phone-${what}-${width}-${locale}`);

      // The header's menu: every entry inside the screen, 44 px high, and not covered where a
      // tap lands; a tap on a link follows it.
      const menu = page.locator('#menu');
      await menu.tap();
      const entries = await page.evaluate(() => [...document.querySelectorAll('#nav a, #nav button, #nav select')].map((e) => {
        const r = e.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return { text: e.textContent.trim().slice(0, 20), left: r.left, right: r.right, height: r.height, reached: !!hit && (hit === e || e.contains(hit)) };
      }));
      assert.ok(entries.length >= 6, `${where}: the menu has ${entries.length} entries`);
      for (const e of entries) {
        if (e.left < 0 || e.right > width + 0.5 || e.height < MIN - 0.5 || !e.reached) problems.push(`${where}: the menu's "${e.text}" is ${JSON.stringify(e)}`);
      }
      const link = hash === '#/tournaments' ? '#/' : '#/tournaments';
      try {
        await page.locator(`#nav a[href="${link}"]`).tap({ timeout: 5000 });
        await page.waitForURL((u) => u.hash === link, { timeout: 5000 });
      } catch (e) {
        problems.push(`${where}: the menu's link to ${link} cannot be tapped (${e.message.split('\n')[0]})`);
      }

      if (what === 'review') {
        await page.goto(`${server.url}/${hash}`);
        await page.locator(ready).first().waitFor();
        // All 19 columns and rows: the corners' intersections are on the screen.
        for (const v of ['A19', 'T19', 'A1', 'T1']) {
          const r = await page.locator(`[data-vertex=${v}]`).boundingBox();
          if (r.x < 0 || r.x + r.width > width + 0.5) problems.push(`${where}: ${v} is at ${r.x}..${r.x + r.width}`);
        }
        const moves = await page.locator('#moves').boundingBox();
        if (moves.x < 0 || moves.x + moves.width > width + 0.5) problems.push(`${where}: the move list runs from ${moves.x} to ${moves.x + moves.width}`);
        // The chat: a line typed and sent with a tap on Send.
        const said = `from a phone ${width} px wide in ${locale}`;
        await page.locator('#chat-text').fill(said);
        try {
          await page.locator('#chat-form button[type=submit]').tap({ timeout: 5000 });
          await page.locator('[data-testid=review-chat]').getByText(said).waitFor();
          assert.equal(await page.locator('#chat-text').inputValue(), '', `${where}: the chat line was sent`);
        } catch (e) {
          problems.push(`${where}: Send cannot be tapped (${e.message.split('\n')[0]})`);
        }
      }
    }
    await context.close();
  }
  assert.equal(problems.length, 0, `on phones:\n${problems.join('\n')}`);
});
