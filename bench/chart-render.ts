/*
 * Issue #10 budget: a one-day 1-second heart-rate series (86,400 points)
 * renders in under 100 ms in headless Chromium. Builds bench/chart-render/
 * (a tiny Vite entry rendering the app's own TimeChart) into a temp dir,
 * serves it with Vite's preview server, and in headless Chromium
 * (/usr/bin/chromium or CHROMIUM_PATH) measures, per fresh page load, the
 * time from uPlot's construction to the end of its first draw
 * (performance.now in the page). Prints every run and the median of 10 cold
 * runs (each a new page) and of 10 warm re-renders in one page.
 * Usage: npx tsx bench/chart-render.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { chromium } from 'playwright-core';
import { build, defaultClientConditions, preview } from 'vite';
import { root } from './support/processes.js';

const BUDGET_MS = 100;
/** What bench/chart-render/main.tsx puts on the page's window. */
interface ChartPage {
  renderChart: () => Promise<number>;
}
const RUNS = 10;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const pageRoot = path.join(root, 'bench/chart-render');
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chart-render-'));
const viteConfig = {
  configFile: false as const,
  root: pageRoot,
  logLevel: 'warn' as const,
  plugins: [react()],
  resolve: { conditions: ['source', ...defaultClientConditions] },
  css: { postcss: path.join(root, 'apps/web') },
  build: { outDir, emptyOutDir: true },
};
await build(viteConfig);
const server = await preview({ ...viteConfig, preview: { port: 0, host: '127.0.0.1' } });
const url = server.resolvedUrls?.local[0];
if (!url) throw new Error('preview server has no URL');

const loadBefore = os
  .loadavg()
  .map((l) => l.toFixed(1))
  .join(' ');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu', '--no-first-run'],
});
const cold: number[] = [];
const warm: number[] = [];
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  for (let i = 0; i < RUNS; i++) {
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(() => typeof (globalThis as unknown as ChartPage).renderChart === 'function');
    cold.push(await page.evaluate(() => (globalThis as unknown as ChartPage).renderChart()));
    if (i === RUNS - 1) {
      for (let j = 0; j < RUNS; j++)
        warm.push(await page.evaluate(() => (globalThis as unknown as ChartPage).renderChart()));
      await page.screenshot({ path: path.join(os.tmpdir(), 'chart-render.png') });
    }
    await page.close();
  }
} finally {
  await browser.close();
  await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
  fs.rmSync(outDir, { recursive: true, force: true });
}

const f = (n: number) => `${n.toFixed(1)} ms`;
console.log(
  `86,400-point heart-rate chart, construction to first draw (headless Chromium, ${os.cpus().length} cores)`,
);
console.log(`cold (new page each): ${cold.map(f).join(', ')}`);
console.log(`warm (same page):     ${warm.map(f).join(', ')}`);
console.log(
  `load average before/after: ${loadBefore} / ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log(`median cold ${f(median(cold))}, median warm ${f(median(warm))}; budget ${BUDGET_MS} ms`);
console.log(`screenshot: ${path.join(os.tmpdir(), 'chart-render.png')}`);
const ok = median(cold) < BUDGET_MS;
console.log(ok ? 'within budget' : 'OVER BUDGET');
process.exit(ok ? 0 : 1);
