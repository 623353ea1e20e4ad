// One's sessions on one's own page, at a phone's 360 px with touch: the list (device, this
// device), ending another browser's session with a tap, and logging out everywhere.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { haveBrowser, session, newPage, register, shot, PASSWORD } from './helpers.mjs';

const NARROW = { width: 360, height: 740 };

test('a player sees their sessions and ends them', { timeout: 90_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t);
  // A phone: narrow, and tapped rather than clicked.
  const context = await browser.newContext({ viewport: NARROW, hasTouch: true, isMobile: true, locale: 'en-US' });
  const page = await context.newPage();
  page.on('pageerror', (e) => { throw new Error(`page error: ${e.message}`); });
  const other = await newPage(browser);
  await register(page, server.url, 'ann', '5k');
  await other.goto(`${server.url}/#/login`);
  await other.locator('#login input[name=username]').fill('ann');
  await other.locator('#login input[name=password]').fill(PASSWORD);
  await other.locator('#login button[type=submit]').click();
  await other.locator('[data-testid=who]').waitFor();

  await page.goto(`${server.url}/#/user/ann`);
  await page.locator('#account summary').tap();
  const rows = page.locator('[data-testid=session]');
  await rows.nth(1).waitFor();
  assert.equal(await rows.count(), 2);
  await page.getByText('(This device)').waitFor();
  // Headless Chromium on Linux, named in a few words.
  assert.match(await rows.first().innerText(), /Chrome on Linux/);
  // Nothing sticks out of a 360 px screen.
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 360, `the page is ${wide} px wide`);
  await page.locator('#account').scrollIntoViewIfNeeded();
  await shot(page, 'sessions-phone');

  const me = (p) => p.evaluate(async () => (await fetch('/api/me')).status);
  await page.getByRole('button', { name: 'End', exact: true }).tap();
  await page.getByText('Session ended.').waitFor();
  assert.equal(await me(other), 401, 'the other browser is logged out');
  assert.equal(await me(page), 200);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=session]').length === 1);

  await page.getByRole('button', { name: 'Log out everywhere' }).tap();
  await page.locator('[data-testid=ask] button[value=ok]').tap();
  await page.waitForURL(/#\/login/);
  assert.equal(await me(page), 401);
});
