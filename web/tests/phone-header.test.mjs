// The header on a phone (issue 39): at 360 and 390 px with touch, on the main pages (the
// review board's among them), nothing of the header is off the screen, the menu button opens
// the links as rows at least 44 px high inside the screen, a tap on one goes there and closes
// the menu; the pages do not scroll sideways.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { haveBrowser, session, register, shot, webFromDisk } from './helpers.mjs';

const WIDTHS = [360, 390];

test('the header fits a phone and its menu opens every link within reach', { timeout: 120_000 }, async (t) => {
  if (!haveBrowser(t)) return;
  const { server, browser } = await session(t);
  for (const width of WIDTHS) {
    const context = await browser.newContext({ viewport: { width, height: 760 }, hasTouch: true, isMobile: true, locale: 'en-US' });
    await webFromDisk(context);
    const page = await context.newPage();
    page.on('pageerror', (e) => { throw new Error(`page error: ${e.message}`); });
    const name = `ann${width}`;
    await register(page, server.url, name, '5k');
    const review = await page.evaluate(async () => {
      const body = JSON.stringify({ sgf: '(;GM[1]FF[4]SZ[19]KM[6.5];B[pd];W[dp](;B[pp];W[dd])(;B[dd]))' });
      const r = await fetch('/api/reviews', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      return (await r.json()).id;
    });
    for (const route of ['#/', '#/tournaments', `#/user/${name}`, '#/messages', `#/review/${review}`]) {
      await page.goto(`${server.url}/${route}`);
      await page.locator('main *').first().waitFor();
      const header = await page.locator('header.top').boundingBox();
      assert.ok(header.x >= 0 && header.x + header.width <= width, `${route} at ${width}: the header is ${JSON.stringify(header)}`);
      const outside = await page.evaluate((w) => [...document.querySelectorAll('header.top *')]
        .filter((e) => e.getClientRects().length)
        .map((e) => e.getBoundingClientRect())
        .filter((r) => r.left < 0 || r.right > w + 0.5).length, width);
      assert.equal(outside, 0, `${route} at ${width}: parts of the header off the screen`);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= width, `${route} at ${width}: the page is ${wide} px wide`);

      const menu = page.locator('#menu');
      const button = await menu.boundingBox();
      assert.ok(button.height >= 44 && button.width >= 44, `the menu button is ${JSON.stringify(button)}`);
      await menu.tap();
      assert.equal(await menu.getAttribute('aria-expanded'), 'true');
      const links = page.locator('#nav a');
      const n = await links.count();
      assert.ok(n >= 4, `${n} links`);
      for (let i = 0; i < n; i++) {
        const b = await links.nth(i).boundingBox();
        assert.ok(b && b.x >= 0 && b.x + b.width <= width && b.height >= 44, `link ${i} at ${width}: ${JSON.stringify(b)}`);
      }
      if (route === '#/') await shot(page, `header-menu-${width}`);
      await page.locator('#nav a[href="#/tournaments"]').tap();
      await page.waitForURL(/#\/tournaments$/);
      assert.equal(await menu.getAttribute('aria-expanded'), 'false', 'a followed link closes the menu');
      assert.equal(await page.locator('#nav a[href="#/tournaments"]').isVisible(), false);
    }
    await context.close();
  }
});
