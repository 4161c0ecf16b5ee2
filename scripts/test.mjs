// `npm test`: unit + integration tests (Vitest, real PostgreSQL), then the
// browser journeys (real server, headless Chromium). Prints one closing line
// "N passed, N failed" over all of them and exits non-zero on any failure.
// Both suites run shuffled (files and the tests in each file), with one seed
// printed at the start and the end: TEST_SEED=<seed> npm test runs that order again.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root } from './build-state.mjs';

const seed = Number(process.env.TEST_SEED ?? Math.floor(Math.random() * 1_000_000));
if (!Number.isSafeInteger(seed) || seed < 0)
  throw new Error(`TEST_SEED must be a whole number, got ${process.env.TEST_SEED}`);
const shuffle = ['--sequence.shuffle', `--sequence.seed=${seed}`];
console.log(`Test order: shuffled with seed ${seed} (TEST_SEED=${seed} npm test repeats it)`);

const reportsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-test-reports-'));
const suites = [
  { name: 'unit + integration', args: ['vitest', 'run'], cwd: root },
  {
    name: 'browser journeys',
    args: ['vitest', 'run', '--config', 'vitest.config.ts'],
    cwd: path.join(root, 'e2e'),
  },
];

let passed = 0;
let failed = 0;
let skipped = 0;
let exitCode = 0;
for (const suite of suites) {
  const report = path.join(reportsDir, `${suite.name.replace(/\W+/g, '-')}.json`);
  console.log(`\n=== ${suite.name} ===`);
  const res = spawnSync(
    'npx',
    [...suite.args, ...shuffle, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    {
      cwd: suite.cwd,
      stdio: 'inherit',
    },
  );
  if (fs.existsSync(report)) {
    const r = JSON.parse(fs.readFileSync(report, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + (r.numTodoTests ?? 0);
    // A suite that failed to load counts as a failure even with no failed test.
    if (r.numFailedTestSuites > 0 && r.numFailedTests === 0) failed += r.numFailedTestSuites;
  } else {
    failed += 1;
  }
  if (res.status !== 0) exitCode = res.status ?? 1;
}
fs.rmSync(reportsDir, { recursive: true, force: true });
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''} (seed ${seed})`);
process.exit(exitCode || (failed > 0 ? 1 : 0));
