// Issue 29 items 1 to 3 with two browsers (two players, each in a browser context of their own):
// a quick-match request withdrawn when its player has gone, a disconnection and the return seen
// by the opponent, and a count panel that does not offer to accept a count its unsure stones
// decide.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { haveBrowser, session, newPage, register, shot, act } from './helpers.mjs';

/** Ann opens a 9x9 Japanese room, Bob joins it guessing right: Bob is Black. The game's id. */
async function roomGame(ann, bob) {
  await ann.locator('#create select[name=size]').selectOption('9');
  await ann.locator('#create select[name=rules]').selectOption('japanese');
  await ann.locator('#create select[name=parity]').selectOption('odd');
  await ann.locator('#create button[type=submit]').click();
  await bob.locator('[data-join$="-odd"]').first().click({ timeout: 15_000 });
  await bob.waitForURL(/#\/game\/\d+/);
  await ann.waitForURL(/#\/game\/\d+/, { timeout: 15_000 });
  return Number(bob.url().match(/#\/game\/(\d+)/)[1]);
}

/** The player's quick-match state, asked over HTTP with the page's cookies (no socket). */
async function matchState(page, url) {
  const r = await page.context().request.get(`${url}/api/match`);
  return (await r.json()).state;
}

test('a quick-match request is withdrawn once its player has been gone a few seconds', { timeout: 90_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t);
  const ann = await newPage(browser);
  const bob = await newPage(browser);
  await register(ann, server.url, 'ann', '5k');
  await register(bob, server.url, 'bob', '5k');
  await ann.locator('#qm-form input[name=size][value="9"]').check();
  for (const s of [13, 19]) await ann.locator(`#qm-form input[name=size][value="${s}"]`).uncheck();
  await ann.locator('#qm-go').click();
  await ann.getByText('Looking for an opponent').waitFor();
  assert.equal(await matchState(ann, server.url), 'waiting');
  // Ann closes her only tab: her last connection is gone. The server waits ten seconds
  // (quick_match::UNATTENDED_AFTER; no flag shortens it), then withdraws her request.
  const context = ann.context();
  await ann.close();
  const deadline = Date.now() + 30_000;
  let state = 'waiting';
  while (state === 'waiting' && Date.now() < deadline) {
    await new Promise((ok) => setTimeout(ok, 500));
    state = (await (await context.request.get(`${server.url}/api/match`)).json()).state;
  }
  assert.equal(state, 'withdrawn');
  // Bob asks for the same game: nobody is waiting, so he is not paired with the absent Ann.
  await bob.locator('#qm-form input[name=size][value="9"]').check();
  for (const s of [13, 19]) await bob.locator(`#qm-form input[name=size][value="${s}"]`).uncheck();
  await bob.locator('#qm-go').click();
  await bob.getByText('Looking for an opponent').waitFor();
  assert.equal(await matchState(bob, server.url), 'waiting');
  assert.doesNotMatch(bob.url(), /#\/game\//);
});

test('the opponent sees a disconnection with its countdown, then the return', { timeout: 90_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t);
  let bob = await newPage(browser);
  const ann = await newPage(browser);
  await register(ann, server.url, 'ann', '3k');
  await register(bob, server.url, 'bob', '3k');
  const id = await roomGame(ann, bob);
  await act(bob, { type: 'move', game: id, point: 'C3' });
  await ann.locator('[data-stone="C3:b"]').waitFor();
  const away = ann.locator('[data-testid=vacation-black]');
  assert.equal(await away.isHidden(), true);
  // Bob's tab closes: Ann sees him disconnected, with the seconds left to come back.
  const context = bob.context();
  await bob.close();
  await away.waitFor({ state: 'visible', timeout: 15_000 });
  assert.match(await away.textContent(), /^Disconnected: \d+ s to come back$/);
  await shot(ann, 'opponent-disconnected');
  // He opens the game again (same browser, still signed in): Ann sees him back.
  bob = await context.newPage();
  await bob.goto(`${server.url}/#/game/${id}`);
  await bob.locator('[data-stone="C3:b"]').waitFor();
  await away.waitFor({ state: 'hidden', timeout: 15_000 });
});

/**
 * Black walls off columns A-D, White F-J; White's group in Black's top left corner has a straight
 * three of eye space and lives or dies by who plays B9 first; alive it wins White the game, dead
 * it loses it (the server test `unsure_stones_deciding_the_winner_are_flagged` has the counts).
 */
const CORNER = [
  ['E9', 'F9'], ['E8', 'F8'], ['E7', 'F7'], ['E6', 'F6'], ['E5', 'F5'], ['E4', 'F4'], ['E3', 'F3'],
  ['E2', 'F2'], ['E1', 'F1'], ['A7', 'D9'], ['B7', 'D8'], ['C7', 'C8'], ['D7', 'B8'], ['H2', 'A8'],
];

test('the count panel: unsure stones that decide the winner are said to, and accepting is not the main action', { timeout: 120_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t);
  const bob = await newPage(browser);
  const ann = await newPage(browser);
  await register(ann, server.url, 'ann', '3k');
  await register(bob, server.url, 'bob', '3k');
  const id = await roomGame(ann, bob);
  for (const [b, w] of CORNER) {
    await act(bob, { type: 'move', game: id, point: b });
    await act(ann, { type: 'move', game: id, point: w });
  }
  await act(bob, { type: 'pass', game: id });
  await act(ann, { type: 'pass', game: id });
  for (const page of [ann, bob]) {
    const panel = page.locator('[data-testid=score]');
    await panel.waitFor({ timeout: 15_000 });
    // The plain sentence, the rule set's way of marking, and no primary Accept.
    const decides = page.locator('[data-testid=unsure-decides]');
    await decides.waitFor();
    assert.match(await decides.textContent(), /^The 5 ringed stones decide who wins/);
    assert.match(await page.locator('[data-testid=count-rules]').textContent(), /Japanese rules: dead stones are taken off as prisoners/);
    const accept = page.locator('[data-action=accept]');
    assert.equal(await accept.isEnabled(), true, 'accepting stays possible');
    assert.equal(await accept.evaluate((b) => b.classList.contains('primary')), false);
    // The corner group is ringed as unsure, the walls are not.
    const ringed = await page.locator('[data-unsure]').evaluateAll((els) => els.map((e) => e.getAttribute('data-unsure')));
    assert.deepEqual(ringed.sort(), ['A8', 'B8', 'C8', 'D8', 'D9']);
  }
  await shot(bob, 'count-unsure-decides');
});
