// A guest plays the built-in bot to the end with one click to start.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { haveBrowser, session, newPage, shot } from './helpers.mjs';

// A page logged in as a new guest, in the lobby.
async function guest(t) {
  const { server, browser } = await session(t);
  const page = await newPage(browser);
  await page.goto(`${server.url}/#/login`);
  await page.locator('#guest').click();
  await page.locator('[data-testid=who]').getByText('18k').waitFor();
  return page;
}

test('a guest plays the bot to the end', { timeout: 120_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const page = await guest(t);
  await page.locator('[data-bot="tengen-bot"]').click();
  await page.waitForURL(/#\/game\/\d+/);
  // Black (the guest) plays a stone, then passes whenever it is its move; accepts the count.
  await page.getByText('Your move.').waitFor();
  await page.locator('[data-vertex="E5"]').click();
  await page.locator('[data-stone="E5:b"]').waitFor();
  for (let i = 0; i < 200; i++) {
    if (await page.locator('[data-testid=result]').count()) break;
    if (await page.locator('[data-action=accept]:not([disabled])').count()) {
      await page.locator('[data-action=accept]').click();
    } else if (await page.locator('[data-action=pass]:not([disabled])').count()) {
      await page.locator('[data-action=pass]').click();
    }
    await page.waitForTimeout(150);
  }
  const result = await page.locator('[data-testid=result]').textContent();
  assert.match(result, /^(Black|White) wins (by|on) /);
});

test('a bot game is set up: board, rules and handicap', { timeout: 60_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const page = await guest(t);
  await page.locator('#bot-terms select[name=size]').selectOption('13');
  await page.locator('#bot-terms select[name=rules]').selectOption('japanese');
  await page.locator('#bot-terms select[name=handicap]').selectOption('3');
  await page.locator('[data-bot="tengen-bot"]').click();
  await page.waitForURL(/#\/game\/\d+/);
  const id = page.url().match(/#\/game\/(\d+)/)[1];
  const game = await page.evaluate(async (id) => (await fetch(`/api/games/${id}`)).json(), id);
  assert.equal(game.terms.size, 13);
  assert.equal(game.terms.rules, 'japanese');
  assert.equal(game.terms.handicap, 3);
  // The handicap stones are on the board, and the bot (White) answers them.
  await page.locator('[data-stone="K10:b"]').waitFor();
  await page.getByText('Your move.').waitFor();
  await shot(page, 'bot-handicap-13');
});
