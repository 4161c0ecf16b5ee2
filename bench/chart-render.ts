/*
 * The shared chart with 86,400 points in headless Chromium. Issue #10: the
 * first draw (uPlot's construction to the end of its first draw) in under
 * 100 ms. Issue #24 item 5: from React's render call to that first draw,
 * the app's TimeChart within 1.5× of a bare React + uPlot component drawing
 * the same series (bench/chart-render/main.tsx), both in the same Chromium
 * run. Builds bench/chart-render/ into a temp dir, serves it with Vite's
 * preview server, and in headless Chromium (/usr/bin/chromium or
 * CHROMIUM_PATH) takes RUNS cold pairs (each component in a new page, the
 * order turned about each pair) and RUNS warm re-renders of each in one page.
 * Prints every run, the medians and the ratios.
 * Usage: npx tsx bench/chart-render.ts      (BENCH_RUNS, default 10)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { chromium } from 'playwright-core';
import { build, defaultClientConditions, preview } from 'vite';
import { root } from './support/processes.js';

const BUDGET_MS = 100;
const RATIO_BUDGET = 1.5;
interface Drawn {
  total: number;
  draw: number;
}
/** What bench/chart-render/main.tsx puts on the page's window. */
interface ChartPage {
  renderChart: () => Promise<Drawn>;
  renderBare: () => Promise<Drawn>;
}
type Which = 'renderChart' | 'renderBare';
const RUNS = Number(process.env.BENCH_RUNS ?? 10);

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
const cold: Record<Which, Drawn[]> = { renderChart: [], renderBare: [] };
const warm: Record<Which, Drawn[]> = { renderChart: [], renderBare: [] };
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const run = async (which: Which, into: Record<Which, Drawn[]>, page: import('playwright-core').Page) =>
    into[which].push(await page.evaluate((w) => (globalThis as unknown as ChartPage)[w as Which](), which));
  for (let i = 0; i < RUNS; i++) {
    const order: Which[] = i % 2 ? ['renderBare', 'renderChart'] : ['renderChart', 'renderBare'];
    for (const which of order) {
      const page = await context.newPage();
      await page.goto(url);
      await page.waitForFunction(
        () => typeof (globalThis as unknown as ChartPage).renderChart === 'function',
      );
      await run(which, cold, page);
      if (i === RUNS - 1 && which === order[1]) {
        for (let j = 0; j < RUNS; j++) for (const w of order) await run(w, warm, page);
        await page.evaluate(() => (globalThis as unknown as ChartPage).renderChart());
        await page.screenshot({ path: path.join(os.tmpdir(), 'chart-render.png') });
      }
      await page.close();
    }
  }
} finally {
  await browser.close();
  await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
  fs.rmSync(outDir, { recursive: true, force: true });
}

const f = (n: number) => `${n.toFixed(1)} ms`;
const totals = (runs: Drawn[]) => runs.map((r) => r.total);
const draws = (runs: Drawn[]) => runs.map((r) => r.draw);
console.log(
  `86,400-point heart-rate chart in headless Chromium (${os.cpus().length} cores), ${RUNS} runs each`,
);
for (const [name, runs] of [
  ['cold', cold],
  ['warm', warm],
] as const) {
  console.log(`${name}, React render to first draw:`);
  console.log(`  TimeChart ${totals(runs.renderChart).map(f).join(', ')}`);
  console.log(`  bare      ${totals(runs.renderBare).map(f).join(', ')}`);
  console.log(`${name}, uPlot construction to first draw:`);
  console.log(`  TimeChart ${draws(runs.renderChart).map(f).join(', ')}`);
  console.log(`  bare      ${draws(runs.renderBare).map(f).join(', ')}`);
}
console.log(
  `load average before/after: ${loadBefore} / ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
const m = (xs: number[]) => median(xs);
for (const [name, runs] of [
  ['cold', cold],
  ['warm', warm],
] as const) {
  const [chart, bare] = [m(totals(runs.renderChart)), m(totals(runs.renderBare))];
  const [chartDraw, bareDraw] = [m(draws(runs.renderChart)), m(draws(runs.renderBare))];
  console.log(
    `median ${name}: render to first draw TimeChart ${f(chart)}, bare ${f(bare)}: ${(chart / bare).toFixed(2)}×; uPlot's draw ${f(chartDraw)} vs ${f(bareDraw)}: ${(chartDraw / bareDraw).toFixed(2)}×`,
  );
}
console.log(`screenshot: ${path.join(os.tmpdir(), 'chart-render.png')}`);
const coldDraw = m(draws(cold.renderChart));
const ratio = m(totals(cold.renderChart)) / m(totals(cold.renderBare));
const ok = coldDraw < BUDGET_MS && ratio < RATIO_BUDGET;
console.log(
  `first draw ${f(coldDraw)} (budget ${BUDGET_MS} ms), cold ratio ${ratio.toFixed(2)}× (budget < ${RATIO_BUDGET}×): ${ok ? 'within budget' : 'OVER BUDGET'}`,
);
process.exit(ok ? 0 : 1);
