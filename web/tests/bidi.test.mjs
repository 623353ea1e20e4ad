// User text is isolated in the page (issue 38): a right-to-left override in a tournament's name
// or a chat line reorders only that text, never what the page shows after it, and the pages
// still fit a 360 px phone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { haveBrowser, session, newPage, register } from './helpers.mjs';

const NAME = 'Night \u202egnp.exe';

/** Whether `second`'s box begins at or after `first`'s end, as left-to-right text places it. */
async function after(page, first, second) {
  const a = await page.locator(first).first().boundingBox();
  const b = await page.locator(second).first().boundingBox();
  return b.x >= a.x + a.width - 1;
}

test('an override in a tournament name or a chat line does not reorder what follows', { timeout: 90_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t);
  const org = await newPage(browser, { width: 360, height: 740 });
  await register(org, server.url, 'org', '1d');
  await org.goto(`${server.url}/#/tournaments`);
  const form = org.locator('#t-create');
  await form.locator('input[name=name]').fill(NAME);
  await form.locator('select[name=system]').selectOption('swiss');
  await form.locator('input[name=rounds]').fill('1');
  await form.locator('button[type=submit]').click();
  await org.waitForURL(/#\/tournament\/\d+/);
  // The name is in an isolating element of its own.
  const title = org.locator('#t-h bdi');
  assert.equal(await title.textContent(), NAME);
  assert.equal(await title.evaluate((e) => getComputedStyle(e).unicodeBidi), 'isolate');

  // In the list, the system and size after the name stay to its right.
  await org.goto(`${server.url}/#/tournaments`);
  const line = org.locator('li', { has: org.locator('a[href^="#/tournament/"]') }).first();
  await line.waitFor();
  assert.ok(await after(org, 'li a[href^="#/tournament/"]', 'li a[href^="#/tournament/"] + span.muted'));
  assert.ok(await org.evaluate(() => document.documentElement.scrollWidth <= 360), 'fits 360 px');

  // A lobby chat line: the text after it (the next line's name) is not pulled into it.
  await org.goto(`${server.url}/#/`);
  const say = org.locator('#lobby-say input[name=text]');
  await say.fill('hello \u202edlrow');
  await say.press('Enter');
  const chat = org.locator('#lobby-chat li bdi').first();
  await chat.waitFor();
  assert.equal(await chat.evaluate((e) => getComputedStyle(e).unicodeBidi), 'isolate');
  assert.ok(await org.evaluate(() => document.documentElement.scrollWidth <= 360), 'fits 360 px');
});
