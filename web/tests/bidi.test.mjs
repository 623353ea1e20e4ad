// User text is isolated in the page (issue 38): a right-to-left override in a message, a
// tournament's name or a chat line reorders only that text, never what the page shows after
// it, and the pages still fit a 360 px phone.

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

test('an override in a message, a tournament name or a chat line does not reorder what follows', { timeout: 90_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t);
  const org = await newPage(browser, { width: 360, height: 740 });
  await register(org, server.url, 'org', '1d');

  // A message's preview: the time after the text stays after it. (Before, the override
  // turned "hi world · 14:08" into "hi 80:41 · world".)
  const bob = await newPage(browser);
  await register(bob, server.url, 'bob', '3k');
  await org.evaluate(async () => {
    const r = await fetch('/api/messages', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ to: 'bob', text: 'hi \u202edlrow' }) });
    if (r.status !== 201) throw new Error(`message: ${r.status}`);
  });
  await org.goto(`${server.url}/#/messages`);
  const preview = org.locator('li[data-with=bob] div.small');
  await preview.waitFor();
  const order = await preview.evaluate((div) => {
    // Ranges over the message's text and over the separator after it, whatever the markup.
    const walker = document.createTreeWalker(div, NodeFilter.SHOW_TEXT);
    const rangeOf = (needle) => {
      for (let n = walker.currentNode; n; n = walker.nextNode()) {
        const at = n.nodeType === 3 ? n.data.indexOf(needle) : -1;
        if (at >= 0) {
          const r = document.createRange();
          r.setStart(n, at);
          r.setEnd(n, at + needle.length);
          return r.getBoundingClientRect();
        }
      }
      throw new Error(`no ${needle}`);
    };
    const text = rangeOf('hi \u202edlrow');
    const dot = rangeOf(' · ');
    return { textRight: text.right, dotLeft: dot.left };
  });
  assert.ok(order.dotLeft >= order.textRight - 1, JSON.stringify(order));


  await org.goto(`${server.url}/#/tournaments`);
  const form = org.locator('#t-create');
  await form.locator('input[name=name]').fill(NAME);
  await form.locator('select[name=system]').selectOption('swiss');
  await form.locator('input[name=rounds]').fill('1');
  await form.locator('button[type=submit]').click();
  await org.waitForURL(/#\/tournament\/\d+/);
  // In the list, the system and size after the name stay to its right.
  await org.goto(`${server.url}/#/tournaments`);
  const line = org.locator('li', { has: org.locator('a[href^="#/tournament/"]') }).first();
  await line.waitFor();
  assert.ok(await after(org, 'li a[href^="#/tournament/"]', 'li a[href^="#/tournament/"] + span.muted'));
  assert.ok(await org.evaluate(() => document.documentElement.scrollWidth <= 360), 'fits 360 px');

  // On the event's page, the name is in an isolating element of its own.
  await line.locator('a').click();
  // The page is drawn again on every live change of the event, which can replace the element
  // between two steps of a locator; one check in the page reads one element.
  await org.waitForFunction((name) => {
    const e = document.querySelector('#t-h bdi');
    return e && e.textContent === name && getComputedStyle(e).unicodeBidi === 'isolate';
  }, NAME, { timeout: 10_000 });

  // A lobby chat line: the text after it (the next line's name) is not pulled into it.
  await org.goto(`${server.url}/#/`);
  const say = org.locator('#lobby-say input[name=text]');
  await say.fill('hello \u202edlrow');
  await say.press('Enter');
  await org.waitForFunction(() => {
    const e = document.querySelector('#lobby-chat li bdi');
    return e && getComputedStyle(e).unicodeBidi === 'isolate';
  }, null, { timeout: 10_000 });
  assert.ok(await org.evaluate(() => document.documentElement.scrollWidth <= 360), 'fits 360 px');
});
