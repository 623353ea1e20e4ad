// A bot whose engine runs elsewhere (`tengen bot --server`): the lobby shows it away until its
// engine connects, then a click starts a game it plays.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { haveBrowser, session, newPage, shot } from './helpers.mjs';

test('a remote bot is away until its engine connects, then plays', { timeout: 90_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t, ['--bot', 'rb@12k=remote']);
  const page = await newPage(browser);
  await page.goto(`${server.url}/#/login`);
  await page.locator('#guest').click();
  await page.locator('[data-testid=who]').waitFor();
  const button = page.locator('[data-bot="rb"]');
  await button.waitFor();
  assert.equal(await button.isDisabled(), true, 'away: its engine is not connected');
  assert.match(await button.getAttribute('title'), /rb is away/);
  await shot(page, 'remote-bot-away');

  // The operator's password, and the engine's process on "another machine".
  const password = execFileSync(server.bin, ['admin', 'bot-password', 'rb', '--db', server.db], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  const engine = spawn(server.bin, ['bot', '--server', server.url, '--name', 'rb', '--level', '1'], {
    env: { ...process.env, TENGEN_BOT_PASSWORD: password },
    stdio: 'ignore',
  });
  t.after(() => engine.kill('SIGTERM'));

  // The lobby's refresh sees it come; the player takes White, so the bot opens.
  await page.locator('[data-bot="rb"]:not([disabled])').waitFor({ timeout: 30_000 });
  await page.locator('#bot-terms select[name=color]').selectOption('white');
  await button.click();
  await page.waitForURL(/#\/game\/\d+/);
  await page.locator('[data-stone$=":b"]').first().waitFor({ timeout: 30_000 });
  await page.getByText('Your move.').waitFor();
  await shot(page, 'remote-bot-game');
});
