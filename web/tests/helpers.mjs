// Shared set-up for the browser tests: a Tengen server on a free port with a fresh database, and
// Debian's Chromium driven by playwright-core.

import { spawn } from 'node:child_process';
import { mkdtempSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const outDir = join(root, 'web', 'test-output');

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

/** True when the browser is there; under CI=true its absence is a failure, not a skip. */
export function haveBrowser(t) {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI === 'true') throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);
  t.skip(`${CHROMIUM} is not installed`);
  return false;
}

export async function startServer(extra = []) {
  const bin = process.env.TENGEN_BIN || join(root, 'target', 'release', 'tengen');
  if (!existsSync(bin)) throw new Error(`${bin} is missing: cargo build --release`);
  const dir = mkdtempSync(join(tmpdir(), 'tengen-web-'));
  const child = spawn(bin, ['serve', '--addr', '127.0.0.1:0', '--db', join(dir, 'web.db'), '--grace', '60', ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/serving on (http:\/\/[0-9.:]+)\//);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
  return { url, stop: () => child.kill('SIGTERM'), bin, db: join(dir, 'web.db') };
}

export async function launch() {
  mkdirSync(outDir, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-default-apps'],
  });
}

/** The password test accounts register with (strong enough for zxcvbn). */
export const PASSWORD = 'heron-violet-42';

export async function register(page, url, name, rank) {
  await page.goto(`${url}/#/login`);
  const f = page.locator('#register');
  await f.locator('input[name=username]').fill(name);
  await f.locator('input[name=password]').fill(PASSWORD);
  await f.locator('select[name=rank]').selectOption(rank);
  await f.locator('button[type=submit]').click();
  await page.locator('[data-testid=who]').waitFor();
}

/** The stones a page shows, as a sorted list of "D4:b". */
export async function stones(page) {
  return (await page.locator('[data-stone]').evaluateAll((els) => els.map((e) => e.getAttribute('data-stone')))).sort();
}

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 375, height: 812 };

/** A server (with `extra` options) and a browser for one test, both stopped when it ends. */
export async function session(t, extra = []) {
  const server = await startServer(extra);
  const browser = await launch();
  t.after(async () => {
    await browser.close();
    server.stop();
  });
  return { server, browser };
}

/**
 * While working on the client: with TENGEN_WEB_FROM_DISK=1 the pages get the scripts and the CSS
 * as they are on disk (TENGEN_WEB_DIR, web/ by default), with the server's headers (the
 * Content-Security-Policy included), instead of the copies embedded in the binary: a change needs
 * no rebuild, and an older copy shows which tests fail without a change. Runs that count use the
 * binary's.
 */
export async function webFromDisk(context) {
  if (process.env.TENGEN_WEB_FROM_DISK !== '1') return;
  await context.route((u) => u.pathname === '/style.css' || /^\/js\/[a-z0-9-]+\.js$/.test(u.pathname), async (route) => {
    const response = await route.fetch();
    const path = new URL(route.request().url()).pathname;
    const file = join(process.env.TENGEN_WEB_DIR || join(root, 'web'), path.slice(1));
    if (!existsSync(file)) return route.fulfill({ response });
    // A script new on disk, which the binary lacks (a 404 there), is served as the binary would.
    const type = path.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8';
    await route.fulfill({ response, status: 200, headers: { ...response.headers(), 'content-type': type }, body: readFileSync(file, 'utf8') });
  });
}

/** A fresh page (its own cookies, the browser's language `locale`) that fails the test on any uncaught page error. */
export async function newPage(browser, viewport = DESKTOP, locale = 'en-US') {
  // English unless a test asks for another language: some tests find elements by their text.
  const context = await browser.newContext({ viewport, locale });
  await webFromDisk(context);
  const page = await context.newPage();
  page.on('pageerror', (e) => { throw new Error(`page error: ${e.message}`); });
  return page;
}

/** Screenshots of the page at desktop and at phone width, named NAME-desktop and NAME-phone. */
export async function shotBoth(page, name) {
  await shot(page, `${name}-desktop`);
  await page.setViewportSize(PHONE);
  await shot(page, `${name}-phone`);
  await page.setViewportSize(DESKTOP);
}

export async function shot(page, name) {
  await page.screenshot({ path: join(outDir, `${name}.png`), fullPage: true });
}

/** A call from the page with its session cookie (`method` on `path`, `body` as JSON); the JSON
 * answer, or an error with the status and the server's words. */
export async function call(page, method, path, body) {
  return page.evaluate(async ([method, path, body]) => {
    const r = await fetch(path, { method, headers: { 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
    const text = await r.text();
    if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${text}`);
    return text ? JSON.parse(text) : null;
  }, [method, path, body]);
}

/** One action over a WebSocket of the page's own (its session cookie). */
export async function act(page, msg) {
  await page.evaluate(async (msg) => {
    const ws = new WebSocket(`ws://${location.host}/api/ws`);
    await new Promise((ok) => { ws.onopen = ok; });
    await new Promise((ok, fail) => {
      ws.onmessage = (e) => {
        const m = JSON.parse(e.data);
        if (m.ref === 1 && m.type === 'ack') ok();
        if (m.ref === 1 && m.type === 'error') fail(new Error(m.message));
      };
      ws.send(JSON.stringify({ ...msg, id: 1 }));
    });
    ws.close();
  }, msg);
}
