/*
 * Issue #9 budget (page weight): the login route's JavaScript transfers under
 * 250 KB (compressed bytes over the wire, every JS request until the network
 * is idle). Builds nothing: starts the built server (apps/server/dist +
 * apps/web/dist) as `npm start` would, on free ports with a temp DATA_DIR,
 * opens /LoginPage in headless Chromium, and sums what the network events
 * report. Then stops the browser and the server (SIGTERM: it stops its
 * embedded PostgreSQL) and checks no PostgreSQL is left on its port.
 * Usage: npm run build && npx tsx bench/web-weight.ts
 */

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { freePort } from '../scripts/free-port.mjs';
import { postgresRunningOn, root, spawnLogged, stopProcess, waitFor } from './support/processes.js';

const BUDGET_JS_BYTES = 250 * 1024;

for (const built of ['apps/server/dist/main.js', 'apps/web/dist/index.html']) {
  if (!fs.existsSync(path.join(root, built))) {
    console.error(`${built} is missing: run npm run build first`);
    process.exit(1);
  }
}

interface Transfer {
  url: string;
  type: string;
  mimeType: string;
  encoding: string;
  cacheControl: string;
  /** Bytes received over the wire (headers and compressed body), as DevTools' "transferred". */
  encoded: number;
  /** Body bytes after decoding. */
  decoded: number;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

async function measureLoginPage(baseUrl: string): Promise<Transfer[]> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu', '--no-first-run'],
  });
  try {
    const context = await browser.newContext({ baseURL: baseUrl });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const seen = new Map<string, Transfer>();
    const finished: Transfer[] = [];
    cdp.on('Network.responseReceived', (e) => {
      const headers = Object.fromEntries(
        Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]),
      );
      seen.set(e.requestId, {
        url: e.response.url,
        type: e.type ?? 'Other',
        mimeType: e.response.mimeType,
        encoding: headers['content-encoding'] ?? 'identity',
        cacheControl: headers['cache-control'] ?? '(none)',
        encoded: 0,
        decoded: 0,
      });
    });
    cdp.on('Network.dataReceived', (e) => {
      const t = seen.get(e.requestId);
      if (t) t.decoded += e.dataLength;
    });
    cdp.on('Network.loadingFinished', (e) => {
      const t = seen.get(e.requestId);
      if (t) {
        t.encoded = e.encodedDataLength;
        finished.push(t);
      }
    });
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await page.goto('/LoginPage', { waitUntil: 'networkidle' });
    await page.getByLabel('Username').waitFor();
    await page.waitForLoadState('networkidle');
    return finished;
  } finally {
    await browser.close();
  }
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-bench-weight-'));
fs.chmodSync(dataDir, 0o755); // reachable by the embedded cluster's user when run as root
const port = await freePort();
const pgPort = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const server = spawnLogged('server', process.execPath, ['apps/server/dist/main.js'], {
  ...process.env,
  NODE_ENV: 'production',
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  EMBEDDED_PG_PORT: String(pgPort),
  DATABASE_URL: '',
  SEED_DEMO: 'false',
  WORKERS: 'false',
  LOG_LEVEL: 'warn',
});

try {
  await waitFor(`${baseUrl}/api/health`, server);
  const transfers = await measureLoginPage(baseUrl);
  const isJs = (t: Transfer) => t.type === 'Script' || /javascript/.test(t.mimeType);
  const js = transfers.filter(isJs);
  const sum = (list: Transfer[], key: 'encoded' | 'decoded') => list.reduce((n, t) => n + t[key], 0);
  const jsBytes = sum(js, 'encoded');
  const document = transfers.find((t) => t.type === 'Document');
  const hashed = js.find((t) => new URL(t.url).pathname.startsWith('/assets/'));
  const indexHtml = await fetch(`${baseUrl}/index.html`);
  await indexHtml.arrayBuffer();

  console.log('/LoginPage in headless Chromium, empty cache, until the network is idle');
  for (const t of [...transfers].sort((a, b) => Number(isJs(b)) - Number(isJs(a)) || b.encoded - a.encoded))
    console.log(
      `  ${(isJs(t) ? 'JS ' : '   ') + new URL(t.url).pathname.padEnd(48)} ${kb(t.encoded).padStart(10)} (${kb(t.decoded)} decoded, ${t.encoding})`,
    );
  console.log(
    `JS transferred:    ${kb(jsBytes)} in ${js.length} requests (${kb(sum(js, 'decoded'))} decoded)`,
  );
  console.log(`total transferred: ${kb(sum(transfers, 'encoded'))} in ${transfers.length} requests`);
  console.log(
    `cache-control of a hashed asset (${hashed ? new URL(hashed.url).pathname : '-'}): ${hashed?.cacheControl}`,
  );
  console.log(`cache-control of the page (/LoginPage → index.html): ${document?.cacheControl}`);
  console.log(`cache-control of /index.html: ${indexHtml.headers.get('cache-control') ?? '(none)'}`);
  console.log(`budget 250 KB of JS: ${jsBytes < BUDGET_JS_BYTES ? 'met' : 'MISSED'}`);
} finally {
  await stopProcess(server);
  if (postgresRunningOn(pgPort)) console.error(`a postgres process was left behind on port ${pgPort}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
