import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { inject } from 'vitest';

const screenshotsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../screenshots');

export const baseUrl = () => inject('baseUrl');
export const dataDir = () => inject('dataDir');

/**
 * Debian's chromium-headless-shell when installed (what Playwright itself runs headless), else the
 * full browser. The full browser's new headless mode runs the whole browser UI around each page:
 * the same journeys cost about 40 % more CPU in it, and the suite is CPU-bound on 2 cores.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const chromiumPath = () =>
  process.env.CHROMIUM_PATH ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

let people = 0;

/**
 * A new browser, as a person at their own address: the portal runs as in production, behind a
 * proxy it trusts on loopback (trustProxy 'loopback'), so X-Forwarded-For is the client's address.
 * Without it every journey signs in from 127.0.0.1 and the suite shares one per-address budget
 * (30 sign-ins a minute): journeys that happened to run close together were refused sign-ins.
 */
export async function newPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  people += 1;
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width: 1280, height: 860 },
    acceptDownloads: true,
    // 198.51.100.0/24 (TEST-NET-2, RFC 5737): documentation addresses, never a real client.
    extraHTTPHeaders: { 'x-forwarded-for': `198.51.100.${(people % 250) + 1}` },
  });
  const page = await context.newPage();
  return { context, page };
}

/** Where a journey's screenshot `<name>.png` goes (e2e/screenshots, git-ignored), for a shot of one region. */
export function screenshotPath(name: string): string {
  fs.mkdirSync(screenshotsDir, { recursive: true });
  return path.join(screenshotsDir, `${name}.png`);
}

/** Saved under e2e/screenshots (git-ignored) so a person can look at what the journey saw. */
export async function screenshot(page: Page, name: string) {
  fs.mkdirSync(screenshotsDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotsDir, `${name}.png`), fullPage: true });
}

export const DEMO_PASSWORD = 'Demo-pass1!';

export async function signIn(page: Page, username: string, password = DEMO_PASSWORD) {
  await page.goto('/LoginPage');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: /log ?in|sign ?in/i }).click();
  await page.waitForURL((url) => url.pathname === '/');
}
