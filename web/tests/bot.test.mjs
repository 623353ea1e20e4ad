// A guest plays the built-in bot to the end with one click to start.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { haveBrowser, session, newPage } from './helpers.mjs';

test('a guest plays the bot to the end', { timeout: 120_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t);
  const page = await newPage(browser);
  await page.goto(`${server.url}/#/login`);
  await page.locator('#guest').click();
  await page.locator('[data-testid=who]').getByText('18k').waitFor();
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
  assert.match(result, /Result: [BW]\+/);
});
