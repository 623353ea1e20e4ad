// Tournaments in the browser: organised from the form, registered from the event's page,
// started by the organiser, and followed live: a result reaches a watching page over the
// WebSocket without a reload, and the event ends by itself after its last round.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { haveBrowser, session, newPage, register, shotBoth, act, PHONE } from './helpers.mjs';

test('a Swiss event from the form to its final standings, followed live', { timeout: 120_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t);
  const org = await newPage(browser);
  const ann = await newPage(browser);
  const bob = await newPage(browser);
  await register(org, server.url, 'org', '1d');
  await register(ann, server.url, 'ann', '3k');
  await register(bob, server.url, 'bob', '5k');

  await org.goto(`${server.url}/#/tournaments`);
  const form = org.locator('#t-create');
  await form.locator('input[name=name]').fill('Club night');
  await form.locator('select[name=system]').selectOption('swiss');
  await form.locator('input[name=rounds]').fill('1');
  await form.locator('select[name=size]').selectOption('9');
  await form.locator('button[type=submit]').click();
  await org.waitForURL(/#\/tournament\/\d+/);
  const id = Number(org.url().match(/#\/tournament\/(\d+)/)[1]);
  await org.getByText('Registering').waitFor();

  for (const [page, name] of [[ann, 'ann'], [bob, 'bob']]) {
    await page.goto(`${server.url}/#/tournament/${id}`);
    await page.locator('button[data-act=register]').click();
    await page.locator('button[data-act=withdraw]').waitFor();
    assert.match(await page.locator('.panel', { hasText: 'Players' }).textContent(), new RegExp(name));
  }
  // The list shows it among the events open for registration.
  await org.goto(`${server.url}/#/tournaments`);
  await org.locator('[data-testid=t-open]').getByText('Club night').waitFor();

  await org.goto(`${server.url}/#/tournament/${id}`);
  await org.locator('button[data-act=start]').click();
  const link = org.locator('.pairings a[href^="#/game/"]');
  await link.waitFor();
  const game = Number((await link.getAttribute('href')).match(/(\d+)/)[1]);
  // Bob's page, opened before the start, learns of the pairing and then of the result live.
  await bob.locator('.pairings a[href^="#/game/"]').waitFor({ timeout: 15_000 });
  const g = await bob.evaluate(async (id) => (await fetch(`/api/games/${id}`)).json(), game);
  await act(g.white.username === 'ann' ? ann : bob, { type: 'resign', game });
  await bob.getByText(/[BW]\+R/).first().waitFor({ timeout: 15_000 });
  await bob.locator('[data-testid=t-status]').getByText('Finished').waitFor({ timeout: 15_000 });
  const standings = await bob.locator('[data-testid=standings]').textContent();
  const winner = g.white.username === 'ann' ? 'bob' : 'ann';
  assert.match(standings, new RegExp(`1${winner}`), standings);
  await shotBoth(bob, 'tournament');
  await bob.setViewportSize(PHONE);
  assert.ok(await bob.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no sideways scroll on a phone');
});
