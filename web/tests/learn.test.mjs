// Learning to play (issue 43), as a newcomer meets it on a phone: the first visit offers
// "learn to play" before any login form; the lessons of First Capture Go (stones and
// liberties, capture, atari and escape) are answered on the board, each try judged by the
// server's rules engine (a wrong move told why, an occupied point refused); then First Capture
// games against the bot on 5x5, 7x7 and 9x9 are played until each is won; then the last
// lesson starts a real 9x9 game against the weakest bot, where a hint circles the engine's move,
// and the learner plays it to a won end (the moves a stronger engine, `tengen gtp`, chooses,
// tapped on the phone). The rules page draws each rule on the board. And the same in Korean and Japanese:
// a wrong try explained in the learner's language, a count answered, the rules page.
//
// Deterministic: the bot's moves come from seeds drawn from the moves, and the learner below
// plays by a fixed plan; no timing is asserted.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { haveBrowser, session, webFromDisk, shot } from './helpers.mjs';

const PHONE_360 = { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true };

async function phone(browser, locale = 'en-US') {
  const context = await browser.newContext({ ...PHONE_360, locale });
  await webFromDisk(context);
  const page = await context.newPage();
  page.on('pageerror', (e) => { throw new Error(`page error: ${e.message}`); });
  return page;
}

/** Taps an intersection of the lesson's board. */
async function tapPoint(page, vertex) {
  await page.locator(`svg.board [data-vertex="${vertex}"]`).tap();
}

/** Taps `vertex` and waits for the teacher's verdict; returns the feedback's text. */
async function attempt(page, vertex) {
  const answered = page.waitForResponse((r) => r.url().includes('/try') && r.request().method() === 'POST');
  await tapPoint(page, vertex);
  await answered;
  const fb = page.locator('[data-testid=feedback]');
  await fb.filter({ hasText: /\S/ }).waitFor();
  return fb.textContent();
}

/** Nothing wider than the screen, and no control under 44 px (links in a sentence aside). */
async function fitsPhone(page, what) {
  const problems = await page.evaluate(() => {
    const out = [];
    if (document.documentElement.scrollWidth > 360) out.push(`the page is ${document.documentElement.scrollWidth} px wide`);
    for (const e of document.querySelectorAll('main a[href], main button, main input, main select, main summary')) {
      if (!e.getClientRects().length) continue;
      const inline = e.tagName === 'A' && getComputedStyle(e).display === 'inline'
        && [...e.parentElement.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && /[\p{L}\p{N}]/u.test(n.textContent));
      if (inline) continue;
      const r = e.getBoundingClientRect();
      if (r.width < 43.5 || r.height < 43.5) out.push(`${e.tagName} "${e.textContent.trim().slice(0, 20)}" is ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
    return out;
  });
  assert.deepEqual(problems, [], what);
}

/**
 * A stronger player for the learner's first real game: `tengen gtp`, the network's search at a
 * fixed visit count on one thread (the same moves every run). `ask(command)` answers its text.
 */
function gtpEngine(bin) {
  const child = spawn(bin, ['gtp', '--rules', 'japanese', '--size', '9', '--visits', '32', '--threads', '1', '--seed', '7'], { stdio: ['pipe', 'pipe', 'inherit'] });
  let buffer = '';
  const waiting = [];
  child.stdout.on('data', (d) => {
    buffer += d;
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const reply = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const w = waiting.shift();
      if (reply.startsWith('?')) w.reject(new Error(reply)); else w.resolve(reply.replace(/^=\s*/, '').trim());
    }
  });
  const ask = (command) => new Promise((resolve, reject) => {
    waiting.push({ resolve, reject });
    child.stdin.write(`${command}\n`);
  });
  return { ask, stop: () => child.kill() };
}

/** The move number the game page shows. */
async function moveNumber(page) {
  return parseInt((await page.locator('[data-testid=move-number]').textContent()).replace(/\D+/g, ''), 10);
}

/**
 * Plays the game on the page to its end as Black, each move the engine's for the position the
 * server holds (a phone's tap and confirm), passing when the engine passes and accepting the
 * count. Returns the result.
 */
async function playToTheEnd(page, serverUrl, gameId, engine) {
  for (let turn = 0; turn < 150; turn++) {
    await page.waitForFunction(() => document.querySelector('[data-testid=result]') || document.querySelector('[data-action=accept]')
      || document.querySelector('#status').textContent === 'Your move.', null, { timeout: 60_000 });
    if (await page.locator('[data-action=accept]').count()) {
      await page.locator('[data-action=accept]').tap();
      await page.locator('[data-testid=result]').waitFor();
    }
    if (await page.locator('[data-testid=result]').count()) return page.locator('[data-testid=result]').getAttribute('data-result');
    const g = await (await fetch(`${serverUrl}/api/games/${gameId}`)).json();
    await engine.ask('clear_board');
    await engine.ask(`komi ${g.terms.komi}`);
    for (const m of g.moves) await engine.ask(`play ${m.color} ${m.point}`);
    const mv = (await engine.ask('genmove b')).toUpperCase();
    const n = await moveNumber(page);
    if (mv === 'PASS') await page.locator('[data-action=pass]').tap();
    else {
      await page.locator(`svg.board [data-vertex="${mv}"]`).tap();
      await page.locator('[data-action=confirm]').tap();
    }
    await page.waitForFunction((before) => document.querySelector('[data-testid=result]') || document.querySelector('[data-action=accept]')
      || parseInt(document.querySelector('[data-testid=move-number]').textContent.replace(/\D+/g, ''), 10) > before, n, { timeout: 60_000 });
  }
  throw new Error('the game did not end');
}

// ----- a First Capture player for the test: capture, save, atari, else play near -----

const LETTERS = 'ABCDEFGHJ';
const name = (n, x, y) => `${LETTERS[x]}${n - y}`;
function neighbours(n, x, y) {
  return [[x - 1, y], [x + 1, y], [x, y - 1], [x, y + 1]].filter(([a, b]) => a >= 0 && b >= 0 && a < n && b < n);
}
function libertiesOf(rows, n, x, y) {
  const c = rows[y][x];
  const seen = new Set([`${x},${y}`]);
  const todo = [[x, y]];
  const libs = new Set();
  while (todo.length) {
    const [a, b] = todo.pop();
    for (const [p, q] of neighbours(n, a, b)) {
      const k = `${p},${q}`;
      if (rows[q][p] === '.') libs.add(k);
      else if (rows[q][p] === c && !seen.has(k)) { seen.add(k); todo.push([p, q]); }
    }
  }
  return libs.size;
}
/** Black's move: the same beginner's plan as the server's unit test of the bot's levels. */
function beginnerMove(rows) {
  const n = rows.length;
  const empty = [];
  for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) if (rows[y][x] === '.') empty.push([x, y]);
  const after = (x, y) => rows.map((r, i) => (i === y ? r.slice(0, x) + 'X' + r.slice(x + 1) : r));
  const touches = (x, y, c, libs) => neighbours(n, x, y).some(([a, b]) => rows[b][a] === c && libertiesOf(rows, n, a, b) === libs);
  const safe = ([x, y]) => libertiesOf(after(x, y), n, x, y) >= 2;
  const pick = (f) => empty.find(f);
  const m = pick(([x, y]) => touches(x, y, 'O', 1))
    || pick(([x, y]) => touches(x, y, 'X', 1) && safe([x, y]))
    || pick(([x, y]) => touches(x, y, 'O', 2) && safe([x, y]))
    || pick(([x, y]) => neighbours(n, x, y).some(([a, b]) => rows[b][a] === 'O') && safe([x, y]))
    || pick(safe) || empty[0];
  return name(n, m[0], m[1]);
}

/** Plays First Capture games on the step's board until Black wins; the games it took. */
async function winFirstCapture(page, size) {
  for (let game = 0; game < size * size; game++) {
    let rows = Array.from({ length: size }, () => '.'.repeat(size));
    // A new first move each game, so that a lost game is not replayed as it was.
    let move = name(size, (Math.floor(size / 2) + game) % size, Math.floor(size / 2));
    for (;;) {
      const answered = page.waitForResponse((r) => r.url().endsWith('/api/learn/first-capture'));
      await tapPoint(page, move);
      const r = await (await answered).json();
      rows = r.board;
      const stones = rows.join('').replace(/\./g, '').length;
      await page.waitForFunction((n) => document.querySelectorAll('svg.board [data-stone]').length === n, stones);
      if (r.winner === 'black') return game + 1;
      if (r.winner) break;
      move = beginnerMove(rows);
    }
    await page.locator('#new-game').tap();
  }
  throw new Error(`no First Capture game won on ${size}x${size}`);
}

test('a newcomer on a phone goes from the welcome through the First Capture lessons to won games and a first real game, won', { timeout: 300_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t);
  const page = await phone(browser);

  // The first visit: three ways in, no login form.
  await page.goto(`${server.url}/`);
  await page.locator('[data-testid=way-learn]').waitFor();
  assert.equal(await page.locator('#login').count(), 0, 'no login form on the welcome');
  for (const way of ['way-bot', 'way-watch']) assert.ok(await page.locator(`[data-testid=${way}]`).isVisible(), way);
  await fitsPhone(page, 'the welcome');
  await shot(page, 'learn-welcome-360');
  await page.locator('[data-testid=way-learn]').tap();
  await page.locator('[data-testid=lessons] li').first().waitFor();
  assert.equal(await page.locator('[data-testid=lessons] li').count(), 11);
  // The lessons are a link in the header too.
  assert.equal(await page.locator('#nav a[href="#/learn"]').count(), 1);
  await fitsPhone(page, 'the lessons');
  await page.locator('[data-testid=learn-continue]').tap();

  // Stones and liberties: any point, a liberty of C3, a liberty of the corner stone, connect.
  await page.locator('[data-testid=prompt]').waitFor();
  assert.match(await attempt(page, 'B4'), /^Right!/);
  await fitsPhone(page, 'a lesson');
  await shot(page, 'learn-lesson-360');
  const steps = [['C4'], ['A2'], ['C3']];
  for (const [v] of steps) {
    await page.locator('[data-testid=next]').tap();
    await page.locator('[data-testid=feedback]:empty').waitFor({ state: 'attached' });
    assert.match(await attempt(page, v), /^Right!/, v);
  }

  // Capture: a wrong move says how many liberties are left; an occupied point is refused; then
  // the capture.
  await page.locator('[data-testid=next]').tap();
  await page.waitForURL(/#\/learn\/02-capture\/0$/);
  await page.locator('[data-testid=feedback]:empty').waitFor({ state: 'attached' });
  assert.match(await attempt(page, 'C3'), /rules do not allow.*stone on that point/);
  assert.match(await attempt(page, 'A1'), /Not quite\. That does not capture.*\(1\)/);
  await page.locator('#again').tap();
  assert.match(await attempt(page, 'C2'), /^Right! Captured/);
  assert.equal(await page.locator('svg.board [data-stone="C3:w"]').count(), 0, 'the captured stone is off the board');
  for (const v of ['D2', 'A2', 'A2']) {
    await page.locator('[data-testid=next]').tap();
    await page.locator('[data-testid=feedback]:empty').waitFor({ state: 'attached' });
    assert.match(await attempt(page, v), /^Right!/, v);
  }

  // Atari and escape: the ataris, then escaping into the corner is wrong (two liberties).
  for (const v of ['D3', 'C2', 'E3']) {
    await page.locator('[data-testid=next]').tap();
    await page.locator('[data-testid=feedback]:empty').waitFor({ state: 'attached' });
    assert.match(await attempt(page, v), /^Right!/, v);
  }
  await page.locator('[data-testid=next]').tap();
  await page.locator('[data-testid=feedback]:empty').waitFor({ state: 'attached' });
  assert.match(await attempt(page, 'A1'), /^Not quite\. Into the corner/);
  await page.locator('#again').tap();
  assert.match(await attempt(page, 'A3'), /^Right!/);

  // First Capture Go on 5x5, 7x7 and 9x9, each until won.
  for (const [i, size] of [5, 7, 9].entries()) {
    await page.locator('[data-testid=next]').tap();
    await page.waitForURL(new RegExp(`#/learn/04-first-capture/${i}$`));
    await page.locator('[data-testid=fc-level]').waitFor();
    const games = await winFirstCapture(page, size);
    assert.match(await page.locator('[data-testid=feedback]').textContent(), /you win/, `${size}x${size} after ${games} games`);
  }
  await shot(page, 'learn-first-capture-won-360');
  // The progress is kept in the browser: the list shows the lessons done.
  await page.goto(`${server.url}/#/learn`);
  assert.match(await page.locator('[data-testid=lessons] li').nth(3).textContent(), /3 of 3 done/);

  // The last lesson starts a real game against the weakest bot, as a guest.
  await page.goto(`${server.url}/#/learn/11-first-game/0`);
  await page.locator('[data-testid=first-game]').tap();
  await page.waitForURL(/#\/game\/\d+$/);
  await page.locator('svg.board').waitFor();
  await page.locator('[data-testid=who]').waitFor({ state: 'attached' });

  // Hints in the first game: the engine's move circled on the board, three a game.
  const hint = page.locator('[data-action=hint]');
  await hint.waitFor();
  assert.match(await hint.textContent(), /Hint \(3 left\)/);
  // The button is a thumb's size, and the page no wider than the phone (the game page's own
  // settings, checkboxes inside their labels, are the phone tests' to judge).
  const box = await hint.boundingBox();
  assert.ok(box.width >= 43.5 && box.height >= 43.5, `the hint button is ${box.width}x${box.height}`);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 360), 'no wider than the phone');
  await hint.tap();
  const shown = page.locator('[data-testid=hint]');
  await shown.waitFor();
  const hinted = await shown.getAttribute('data-move');
  assert.match(hinted, /^[A-HJ][1-9]$/);
  assert.match(await shown.textContent(), new RegExp(`A good move here: ${hinted}`));
  assert.equal(await page.locator('svg.board [data-mark^="CR:"]').count(), 1, 'the hint is circled');
  assert.match(await hint.textContent(), /Hint \(2 left\)/);
  await shot(page, 'learn-first-game-hint-360');
  // Playing it (a phone confirms a move) takes the circle away; the bot answers.
  await page.locator(`svg.board [data-vertex="${hinted}"]`).tap();
  await page.locator('[data-action=confirm]').tap();
  await page.locator(`svg.board [data-stone="${hinted}:b"]`).waitFor();
  await page.locator('svg.board [data-mark^="CR:"]').waitFor({ state: 'detached' });

  // The learner plays on to the end (the moves a stronger engine chooses, tapped on the phone)
  // and wins the first real game.
  const gameId = page.url().match(/#\/game\/(\d+)$/)[1];
  const engine = gtpEngine(server.bin);
  try {
    const result = await playToTheEnd(page, server.url, gameId, engine);
    assert.match(result, /^B\+/, `the first game's result: ${result}`);
  } finally {
    engine.stop();
  }
  await shot(page, 'learn-first-game-won-360');
});

test('the lessons speak the learner\'s language: a wrong try explained in Korean, a count, the rules page and the welcome\'s way to watch in Japanese', { timeout: 120_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t);
  const ko = await phone(browser, 'ko-KR');
  await ko.goto(`${server.url}/`);
  await ko.locator('[data-testid=way-learn]').getByText('바둑 배우기').waitFor();
  await ko.goto(`${server.url}/#/learn/02-capture/0`);
  await ko.locator('[data-testid=prompt]').getByText('백돌은 활로가 하나 남았습니다', { exact: false }).waitFor();
  assert.match(await attempt(ko, 'A1'), /^아쉽습니다\. 따내지 못했습니다/);
  await ko.locator('#again').tap();
  assert.match(await attempt(ko, 'C2'), /^맞았습니다!/);
  await shot(ko, 'learn-lesson-360-ko');

  const ja = await phone(browser, 'ja-JP');
  await ja.goto(`${server.url}/#/learn/10-counting/0`);
  const form = ja.locator('#count-form');
  await form.waitFor();
  await form.locator('select[name=winner]').selectOption('B');
  await form.locator('input[name=margin]').fill('1');
  await form.locator('button[type=submit]').tap();
  await ja.locator('[data-testid=feedback]').getByText('惜しい', { exact: false }).waitFor();
  // The count that shows why: White 17 territory, Black 15 and a prisoner.
  assert.match(await ja.locator('[data-testid=count-why]').textContent(), /地 15 \+ 石 0 \+ アゲハマ 1 = 16.*地 17 \+ 石 0 \+ アゲハマ 0 = 17/);
  await form.locator('select[name=winner]').selectOption('W');
  await form.locator('button[type=submit]').tap();
  await ja.locator('[data-testid=feedback]').getByText('正解です', { exact: false }).waitFor();
  await fitsPhone(ja, 'a count in Japanese');
  await shot(ja, 'learn-count-360-ja');

  // The rules page says each preset in plain words, from the engine's parameters.
  await ja.goto(`${server.url}/#/rules/first-capture`);
  const fc = ja.locator('[data-preset=first-capture]');
  await fc.waitFor();
  assert.match(await fc.textContent(), /石を一つでも先に取った方が勝ち.*自分の石を取られる手も打てますが、打った方の負けです.*004/s);
  assert.equal(await ja.locator('[data-preset]').count(), 1);
  await fitsPhone(ja, 'the rules page in Japanese');

  // "Watch a game" with no game being played: a guest, in the lobby, told why.
  await ja.goto(`${server.url}/`);
  await ja.locator('[data-testid=way-watch]').tap();
  await ja.locator('[data-testid=toast]').getByText('いま打たれている対局はありません', { exact: false }).waitFor();
  await ja.locator('#create').waitFor();
  await ja.locator('[data-testid=glossary]').waitFor();
});

test('the rules page draws each rule on the board as the engine played it, with its seed\'s passage, on a phone', { timeout: 120_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t);
  const page = await phone(browser);
  await page.goto(`${server.url}/#/rules/japanese`);
  const figures = page.locator('[data-preset=japanese] figure[data-rule]');
  await figures.first().waitFor();
  assert.deepEqual(await figures.evaluateAll((fs) => fs.map((f) => f.dataset.rule)), ['capture', 'ko', 'suicide', 'scoring']);
  // Each drawn by the board component: the position with the moves, then the board after.
  const capture = page.locator('figure[data-rule=capture]');
  assert.equal(await capture.locator('svg.board').count(), 2);
  assert.equal(await capture.locator('[data-board=before] [data-stone="C3:w"]').count(), 1);
  assert.equal(await capture.locator('[data-board=after] [data-stone="C3:w"]').count(), 0, 'the capture as the engine made it');
  assert.match(await capture.textContent(), /Black plays C2 and captures 1\./);
  // The ko: the capture, then the retake refused and crossed out.
  const ko = page.locator('figure[data-rule=ko]');
  assert.match(await ko.textContent(), /White may not take back at B3 at once: it is ko/);
  assert.equal(await ko.locator('[data-board=before] [data-mark^="MA:"]').count(), 1);
  assert.equal(await ko.locator('blockquote[data-seed="003"]').count(), 1);
  assert.match(await ko.locator('blockquote').textContent(), /In Ko situations the second player may not recapture.*Seed 003/s);
  assert.match(await page.locator('figure[data-rule=suicide]').textContent(), /Black may not play A4: it would be suicide.*Suicide is illegal/s);
  assert.match(await page.locator('figure[data-rule=scoring]').textContent(), /Black: territory 3 \+ stones 0 \+ prisoners 0 \+ komi 0 = 3.*White: territory 10 \+ stones 0 \+ prisoners 0 \+ komi 6\.5 = 16\.5.*Result: W\+13\.5/s);
  await fitsPhone(page, 'the rules page with its diagrams');
  await shot(page, 'rules-diagrams-360');
  // Where a preset allows what another forbids, the diagram says so: Tromp-Taylor takes the
  // stones off, First Capture Go ends the game (in Chinese), and has no ko or count to show.
  await page.goto(`${server.url}/#/rules/tromp-taylor`);
  await page.locator('figure[data-rule=suicide]').getByText('allowed here, and its own 2 stones are taken off').waitFor();
  const zh = await phone(browser, 'zh-CN');
  await zh.goto(`${server.url}/#/rules/first-capture`);
  await zh.locator('figure[data-rule=suicide]').getByText('自己的2子被拿掉，并且输棋', { exact: false }).waitFor();
  assert.match(await zh.locator('figure[data-rule=capture]').textContent(), /获胜.*种子文档 004/s);
  assert.equal(await zh.locator('figure[data-rule]').count(), 2);
  await fitsPhone(zh, 'the First Capture rules in Chinese');
});
