// Reporting and moderating in the browser: a player reports a chat line from the game page, a
// moderator (made one with `tengen admin set-role`) finds it on the moderators' page with its
// chat, resolves it and mutes the player, who is told; the moderator hides the line and it goes
// from the other player's page.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { haveBrowser, session, newPage, register, shotBoth } from './helpers.mjs';
import en from '../js/lang-en.js';

test('a reported chat line reaches the moderators, who resolve it, mute and hide', { timeout: 120_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t);
  const [ann, bob, mod] = [await newPage(browser), await newPage(browser), await newPage(browser)];
  await register(ann, server.url, 'ann', '5k');
  await register(bob, server.url, 'bob', '5k');
  await register(mod, server.url, 'moder', '5k');
  execFileSync(server.bin, ['admin', 'set-role', 'moder', 'moderator', '--db', server.db]);
  // A game between Ann and Bob, and a line of Bob's in its chat.
  const room = await ann.evaluate(async () => (await (await fetch('/api/rooms', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ size: 9, rules: 'japanese', parity: 'odd' }) })).json()).id);
  const game = await bob.evaluate(async (room) => (await (await fetch(`/api/rooms/${room}/join`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ guess: 'odd' }) })).json()).game_id, room);
  await bob.goto(`${server.url}/#/game/${game}`);
  await ann.goto(`${server.url}/#/game/${game}`);
  await bob.locator('#chat-form input[name=text]').fill('you play like a bot');
  await bob.locator('#chat-form button').click();
  const line = ann.locator('#chat p', { hasText: 'you play like a bot' });
  await line.waitFor();
  await line.getByRole('button', { name: 'report' }).click();
  await ann.locator('[data-testid=ask] input').fill('an insult');
  await ann.locator('[data-testid=ask] button[value=ok]').click();
  await ann.getByText('Reported. Thank you.').waitFor();

  // The moderator's page: the report with the chat around it.
  await mod.goto(`${server.url}/#/moderation`);
  await mod.reload();
  const report = mod.locator('[data-report]').first();
  await report.waitFor();
  assert.match(await report.textContent(), /bob, reported by ann/);
  assert.match(await report.textContent(), /you play like a bot/);
  await shotBoth(mod, 'moderation');
  await report.locator('input[name=note]').fill('muted for an hour');
  await report.getByRole('button', { name: 'Resolve' }).click();
  await mod.getByText('No reports waiting.').waitFor();
  // Muted: Bob is told on his page, and his next line is refused.
  const act = mod.locator('#act');
  await act.locator('input[name=user]').fill('bob');
  await act.locator('select[name=action]').selectOption('mute');
  await act.locator('input[name=reason]').fill('insults in chat');
  await act.getByRole('button', { name: 'Do it' }).click();
  await bob.getByText('A moderator muted you: insults in chat').waitFor();
  assert.match(await mod.locator('#log').textContent(), /mute/);
  // Hidden from the game page: it goes from Ann's.
  await mod.goto(`${server.url}/#/game/${game}`);
  const seen = mod.locator('#chat p', { hasText: 'you play like a bot' });
  await seen.waitFor();
  await seen.getByRole('button', { name: 'hide' }).click();
  await mod.locator('[data-testid=ask] input').fill('insult');
  await mod.locator('[data-testid=ask] button[value=ok]').click();
  await line.waitFor({ state: 'detached' });
  // A player who is not a moderator gets no moderators' page.
  await ann.goto(`${server.url}/#/moderation`);
  await ann.getByText(en['error.not_moderator']).waitFor();
});
