// Players' own tools in the browser: a private message written from a player's page reaches the
// other player live (a toast, then the thread), the conversations list counts it unread, friends
// show online in the lobby, and a lobby chat line reaches the other player's lobby.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { haveBrowser, session, newPage, register } from './helpers.mjs';

test('a message from a player page reaches the other player live, friends and the lobby chat', { timeout: 120_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t);
  const ann = await newPage(browser);
  const bob = await newPage(browser);
  await register(ann, server.url, 'ann', '5k');
  await register(bob, server.url, 'bob', '5k');
  // Ann adds Bob as a friend from his page; the lobby shows him online.
  await ann.goto(`${server.url}/#/user/bob`);
  await ann.locator('#friend-user', { hasText: 'Add friend' }).click();
  await ann.locator('#friend-user', { hasText: 'Remove friend' }).waitFor();
  await ann.goto(`${server.url}/#/`);
  await ann.locator('[data-friend="bob"][data-online="true"]').waitFor();
  // Ann writes to Bob from his page; Bob, in the lobby, gets a toast.
  await bob.goto(`${server.url}/#/`);
  await ann.goto(`${server.url}/#/user/bob`);
  await ann.locator('#message-user').click();
  await ann.waitForURL(/#\/messages\/bob$/);
  await ann.locator('#write textarea').fill('good game yesterday');
  await ann.locator('#write button[type=submit]').click();
  await ann.locator('[data-testid=thread] li.mine', { hasText: 'good game yesterday' }).waitFor();
  await bob.locator('.toast', { hasText: 'Message from ann: good game yesterday' }).waitFor();
  // Bob's conversations count it unread; the thread shows it, and his answer reaches Ann's open
  // thread live.
  await bob.goto(`${server.url}/#/messages`);
  assert.match(await bob.locator('[data-with="ann"] [data-testid=unread]').textContent(), /1 new/);
  await bob.locator('[data-with="ann"] a').click();
  await bob.locator('[data-testid=thread] li.theirs', { hasText: 'good game yesterday' }).waitFor();
  await bob.locator('#write textarea').fill('thanks!');
  await bob.locator('#write button[type=submit]').click();
  await ann.locator('[data-testid=thread] li.theirs', { hasText: 'thanks!' }).waitFor();
  // The lobby chat: Ann's line reaches Bob's lobby.
  await bob.goto(`${server.url}/#/`);
  await ann.goto(`${server.url}/#/`);
  await ann.locator('#lobby-say input[name=text]').fill('anyone for a 9x9?');
  await ann.locator('#lobby-say button[type=submit]').click();
  await bob.locator('[data-testid=lobby-chat] li', { hasText: 'anyone for a 9x9?' }).waitFor();
});
