// `npm test`: unit + integration tests (Vitest, real PostgreSQL) and the
// browser journeys (real server, headless Chromium) in two shards
// (TEST_E2E_SHARDS), all side by side: the suites share nothing (each has its
// own PostgreSQL, ports and data directory), and the journeys mostly wait (a
// server, a browser), so together they keep two cores busy where one after
// the other left them half idle. Every line is prefixed with its suite. Prints
// one closing line "N passed, N failed" over all of them and exits non-zero on
// any failure. Every suite runs shuffled (files and the tests in each file),
// with one seed printed at the start and the end: TEST_SEED=<seed> npm test
// runs that order again. TEST_SUITES=sequential runs them one after another.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { buildStale, root } from './build-state.mjs';

const seed = Number(process.env.TEST_SEED ?? Math.floor(Math.random() * 1_000_000));
if (!Number.isSafeInteger(seed) || seed < 0)
  throw new Error(`TEST_SEED must be a whole number, got ${process.env.TEST_SEED}`);
const shuffle = ['--sequence.shuffle', `--sequence.seed=${seed}`];
console.log(`Test order: shuffled with seed ${seed} (TEST_SEED=${seed} npm test repeats it)`);

// Build once what is stale, before either suite starts: the integration tests spawn the built
// server (not its sources through tsx), and the journeys' setup then finds it fresh.
buildStale();

const reportsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-test-reports-'));
// The journeys in shards, each a Vitest run of its own with its own server, database, mail sink
// and browser (global-setup.ts): nothing is shared, so a shard's journeys never meet another's
// data. Within a shard the journeys run one after another, as one person at a time would.
const e2eShards = Number(process.env.TEST_E2E_SHARDS ?? 2);
if (!Number.isSafeInteger(e2eShards) || e2eShards < 1)
  throw new Error(`TEST_E2E_SHARDS must be a whole number ≥ 1, got ${process.env.TEST_E2E_SHARDS}`);
const suites = [
  { name: 'unit + integration', label: '[int]', args: ['vitest', 'run'], cwd: root },
  ...Array.from({ length: e2eShards }, (_, i) => ({
    name: e2eShards === 1 ? 'browser journeys' : `browser journeys ${i + 1} of ${e2eShards}`,
    label: e2eShards === 1 ? '[e2e]' : `[e2e ${i + 1}/${e2eShards}]`,
    args: [
      'vitest',
      'run',
      '--config',
      'vitest.config.ts',
      ...(e2eShards === 1 ? [] : [`--shard=${i + 1}/${e2eShards}`]),
    ],
    cwd: path.join(root, 'e2e'),
  })),
];

/** Runs one suite; resolves with its exit status and its JSON report (or null). */
function run(suite) {
  const report = path.join(reportsDir, `${suite.name.replace(/\W+/g, '-')}.json`);
  const started = Date.now();
  const child = spawn(
    'npx',
    [...suite.args, ...shuffle, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    {
      cwd: suite.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
    },
  );
  for (const stream of [child.stdout, child.stderr])
    readline.createInterface({ input: stream }).on('line', (line) => console.log(`${suite.label} ${line}`));
  return new Promise((resolve) => {
    child.on('close', (status) => {
      console.log(`${suite.label} ${suite.name}: done in ${Math.round((Date.now() - started) / 1000)} s`);
      resolve({ status, report: fs.existsSync(report) ? JSON.parse(fs.readFileSync(report, 'utf8')) : null });
    });
  });
}

const results = [];
if (process.env.TEST_SUITES === 'sequential') for (const suite of suites) results.push(await run(suite));
else results.push(...(await Promise.all(suites.map(run))));

let passed = 0;
let failed = 0;
let skipped = 0;
let exitCode = 0;
for (const { status, report: r } of results) {
  if (r) {
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + (r.numTodoTests ?? 0);
    // A suite that failed to load counts as a failure even with no failed test.
    if (r.numFailedTestSuites > 0 && r.numFailedTests === 0) failed += r.numFailedTestSuites;
  } else {
    failed += 1;
  }
  if (status !== 0) exitCode = status ?? 1;
}
fs.rmSync(reportsDir, { recursive: true, force: true });
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''} (seed ${seed})`);
process.exit(exitCode || (failed > 0 ? 1 : 0));
