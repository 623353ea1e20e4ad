// One's own account from the player page: a new password (the other browser is logged out), the
// data export, and deleting the account (its name is free again; its games stay); blocking a
// player from theirs.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { haveBrowser, session, newPage, register } from './helpers.mjs';

test('a player changes the password, exports the data and deletes the account', { timeout: 90_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t);
  const page = await newPage(browser);
  const other = await newPage(browser);
  await register(page, server.url, 'ann', '5k');
  await other.goto(`${server.url}/#/login`);
  await other.locator('#login input[name=username]').fill('ann');
  await other.locator('#login input[name=password]').fill('heron-violet-42');
  await other.locator('#login button[type=submit]').click();
  await other.locator('[data-testid=who]').waitFor();

  await page.goto(`${server.url}/#/user/ann`);
  await page.locator('#account summary').click();
  await page.locator('#password input[name=current]').fill('heron-violet-42');
  await page.locator('#password input[name=new]').fill('better-heron-77');
  await page.locator('#password button[type=submit]').click();
  await page.getByText('Password changed').waitFor();
  const me = (p) => p.evaluate(async () => (await fetch('/api/me')).status);
  assert.equal(await me(page), 200);
  assert.equal(await me(other), 401, 'the other browser is logged out');
  const data = await page.evaluate(async () => (await fetch('/api/me/export')).json());
  assert.equal(data.account.username, 'ann');

  // Another player blocks Ann from her page, and unblocks her.
  const bob = await newPage(browser);
  await register(bob, server.url, 'bob', '5k');
  await bob.goto(`${server.url}/#/user/ann`);
  await bob.getByRole('button', { name: 'Block ann' }).click();
  await bob.getByText('ann is blocked').waitFor();
  assert.deepEqual((await bob.evaluate(async () => (await fetch('/api/me/blocks')).json())).blocks, ['ann']);
  await bob.getByRole('button', { name: 'Unblock ann' }).click();
  await bob.getByText('ann is unblocked').waitFor();

  await page.locator('#delete-account input[name=password]').fill('better-heron-77');
  await page.locator('#delete-account button[type=submit]').click();
  // The page's own dialog, not the browser's: Cancel keeps the account, OK deletes it.
  await page.locator('[data-testid=ask] button[value=cancel]').click();
  await page.locator('[data-testid=ask]').waitFor({ state: 'detached' });
  assert.equal(await page.evaluate(async () => (await fetch('/api/me')).status), 200);
  await page.locator('#delete-account button[type=submit]').click();
  await page.locator('[data-testid=ask] button[value=ok]').click();
  await page.waitForURL(/#\/login/);
  assert.equal(await page.evaluate(async () => (await fetch('/api/users/ann')).status), 404);
});
