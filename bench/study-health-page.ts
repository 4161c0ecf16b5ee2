/*
 * Issue #23 budget: the Study health page's first render of 1,000 × 14 heat
 * map cells < 200 ms in headless Chromium. Seeds a fresh embedded database
 * as bench/study-health.ts does (bench/support/health-trial.ts): a trial of
 * BENCH_PARTICIPANTS (1,000) × 90 days and, as the anchor in the same run, a
 * trial of 10 participants measured the same way. Serves the built web app
 * (`npm run build` first) from the real server in this process, signs in as
 * the bench Admin (bench/support/bench-app.ts) and opens
 * /StudyHealth?trialId=… (the default 14 days) in a new page each round,
 * `BENCH_ROUNDS` (7) rounds, cases taking turns.
 *
 * Measured in the page (a MutationObserver installed before the app loads,
 * times from performance.now()):
 *  - answer: the 14-day GET /api/studyHealth/trials/{id}'s last byte
 *    (resource timing responseEnd);
 *  - first cells: the first row's first cell button in the DOM;
 *  - view: the last day's button of the 20th row (the rows a 900-px window
 *    shows; the table renders only the rows in view, decision 038);
 *  - render = view − answer: parsing the answer, building the rows and
 *    rendering what the page shows (what the budget names), and from
 *    navigation;
 *  - scroll to the end: the container scrolled to its bottom, until the
 *    last participant's last cell is in the DOM;
 *  - the renderer's main-thread time of the page (CDP Performance.getMetrics:
 *    TaskDuration, steadier than wall time on a shared machine).
 * A screenshot of the last big page goes to $TMPDIR/study-health-page.png.
 *
 *   npm run build && npx tsx --conditions=source bench/study-health-page.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { buildApp } from '../apps/server/src/http/app.js';
import { benchRuntime, benchTeam, signedInCookie } from './support/bench-app.js';
import { seedHealthTrial, vacuumAnalyze } from './support/health-trial.js';
import { root } from './support/processes.js';

const N = Number(process.env.BENCH_PARTICIPANTS ?? 1000);
const ANCHOR_N = 10;
const DAYS = 14;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const BUDGET_MS = 200;

if (!fs.existsSync(path.join(root, 'apps/web/dist/index.html'))) {
  console.error('apps/web/dist/index.html is missing: run npm run build first');
  process.exit(1);
}

const { runtime, config, dataDir, remove } = await benchRuntime('tw-bench-health-page-');
const app = await buildApp(runtime.ctx, { logger: false, serveWeb: true });
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Installed before the app's scripts: when the first and the last cell reach the DOM. */
const OBSERVER = `
  window.__heat = { first: null, all: null, end: null, scrolled: null };
  const mark = () => {
    const h = window.__heat;
    const now = performance.now();
    if (h.first === null && document.querySelector('button[data-r="0"][data-c="0"]')) h.first = now;
    if (h.all === null && document.querySelector(h.lastCell)) h.all = now;
    if (h.scrolled !== null && h.end === null && document.querySelector(h.endCell)) h.end = now;
  };
  new MutationObserver(mark).observe(document, { childList: true, subtree: true });
`;

interface Round {
  answer: number;
  first: number;
  all: number;
  scroll: number;
  taskMs: number;
}

try {
  const db = runtime.ctx.db;
  const { teamId, trialId } = await benchTeam(db, 'Bench health page');
  const { id: anchorTrialId } = await db
    .insertInto('trials')
    .values({ team_id: teamId, trial_number: '2', trial_name: 'Anchor', trial_code: 'ANC' })
    .returning('id')
    .executeTakeFirstOrThrow();
  console.log(`seeding ${N} participants × 90 days, and ${ANCHOR_N} for the anchor…`);
  await seedHealthTrial(db, { teamId, trialId, code: 'BEN' }, N, 90);
  await seedHealthTrial(db, { teamId, trialId: anchorTrialId, code: 'ANC' }, ANCHOR_N, 90);
  await vacuumAnalyze(dataDir, config.EMBEDDED_PG_PORT);

  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const cookies = (await signedInCookie(base)).split('; ').map((pair) => {
    const i = pair.indexOf('=');
    return { name: pair.slice(0, i), value: pair.slice(i + 1), url: base };
  });

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu', '--no-first-run'],
  });
  const shot = path.join(process.env.TMPDIR ?? os.tmpdir(), 'study-health-page.png');
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addCookies(cookies);

    const open = async (id: number, participants: number, screenshot = false): Promise<Round> => {
      const page = await context.newPage();
      const lastCell = `button[data-r="${Math.min(participants, 20) - 1}"][data-c="${DAYS - 1}"]`;
      const endCell = `button[data-r="${participants - 1}"][data-c="${DAYS - 1}"]`;
      await page.addInitScript(
        `${OBSERVER}; window.__heat.lastCell = ${JSON.stringify(lastCell)}; window.__heat.endCell = ${JSON.stringify(endCell)};`,
      );
      const cdp = await context.newCDPSession(page);
      await cdp.send('Performance.enable');
      await page.goto(`${base}/StudyHealth?trialId=${id}`, { waitUntil: 'commit' });
      await page.waitForFunction(
        () => (globalThis as unknown as { __heat: { all: number | null } }).__heat.all,
        null,
        {
          timeout: 120_000,
          polling: 50,
        },
      );
      if (screenshot) await page.screenshot({ path: shot }); // the first view, before scrolling
      // Scrolled to the end: until the last participant's row is rendered.
      await page.evaluate(`{
        const box = document.querySelector('table[aria-label="Wear per participant and day"]').parentElement;
        window.__heat.scrolled = performance.now();
        box.scrollTop = box.scrollHeight;
        // All rows already rendered (a trial shorter than the view): nothing to wait for.
        if (document.querySelector(window.__heat.endCell)) window.__heat.end = window.__heat.scrolled;
      }`);
      await page.waitForFunction(
        () => (globalThis as unknown as { __heat: { end: number | null } }).__heat.end,
        null,
        { timeout: 60_000, polling: 20 },
      );
      const { metrics } = (await cdp.send('Performance.getMetrics')) as {
        metrics: { name: string; value: number }[];
      };
      const r = await page.evaluate(() => {
        const h = (
          globalThis as unknown as { __heat: { first: number; all: number; end: number; scrolled: number } }
        ).__heat;
        const api = performance
          .getEntriesByType('resource')
          .find((e) => /\/api\/studyHealth\/trials\/\d+\?/.test(e.name)) as unknown as {
          responseEnd: number;
        };
        return { answer: api.responseEnd, first: h.first, all: h.all, scroll: h.end - h.scrolled };
      });
      await page.close();
      return { ...r, taskMs: metrics.find((m) => m.name === 'TaskDuration')!.value * 1000 };
    };

    await open(anchorTrialId, ANCHOR_N); // warm-up: the server's and the browser's caches
    await open(trialId, N);
    const big: Round[] = [];
    const anchor: Round[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      anchor.push(await open(anchorTrialId, ANCHOR_N));
      big.push(await open(trialId, N, i === ROUNDS - 1));
    }

    const f = (x: number) => `${x.toFixed(0)} ms`;
    const describe = (label: string, rs: Round[]) => {
      const render = median(rs.map((r) => r.all - r.answer));
      const first = median(rs.map((r) => r.first - r.answer));
      console.log(
        `  ${label.padEnd(26)} render (answer → rows in view) ${f(render).padStart(7)} (${rs
          .map((r) => (r.all - r.answer).toFixed(0))
          .join(', ')}); answer → first cells ${f(first)}; navigation → rows in view ${f(
          median(rs.map((r) => r.all)),
        )}; scroll to the end ${f(median(rs.map((r) => r.scroll)))}; main thread ${f(median(rs.map((r) => r.taskMs)))}`,
      );
      return render;
    };
    console.log(
      `\n${N} × ${DAYS} cells, ${ROUNDS} rounds (medians), load ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
    );
    const a = describe(`anchor (${ANCHOR_N} participants)`, anchor);
    const b = describe(`${N} participants`, big);
    console.log(
      `  ${N} / anchor: ${(b / a).toFixed(1)}×; budget render < ${BUDGET_MS} ms: ${b < BUDGET_MS ? 'met' : 'MISSED'}`,
    );
    console.log(`  screenshot: ${shot}`);
  } finally {
    await browser.close();
  }
} finally {
  await app.close();
  await runtime.stop();
  remove();
}
