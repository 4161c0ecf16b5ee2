/*
 * The order of the test files: shuffled with the run's seed (--sequence.seed, printed by npm test),
 * then the integration files that take longest queued first, each group still in its shuffled
 * order. Vitest runs the projects one after another with isolation off (all of one project's files
 * queued, then the next's), and a file that takes two minutes queued last was the last thing still
 * running, on one core, for a minute after everything else had ended. The shuffle still decides
 * which files share a worker and in which order, so order-dependence shows as before.
 */
// Vitest's own seeded shuffle (what its RandomSequencer calls): one seed, the same order as Vitest's.
import { shuffle as shuffled } from '@vitest/utils';
import type { TestSpecification } from 'vitest/node';
import { BaseSequencer } from 'vitest/node';

/**
 * Integration files that took 40 s or more of a full `npm test` on 2 cores (they wait on real
 * processes, a restarted database or many provider calls). A file missing here is only queued in
 * its shuffled place; a file listed that became fast costs nothing.
 */
const LONG_FILES = [
  'platform/connection-loss',
  'scale-out/scale-out',
  'google-health/reader-series',
  'platform/fuzz',
  'platform/crash-durability',
  'data-export/export-crash',
  'device-sync/sync-after-restart',
  'google-health/parity',
  'device-data/provider-budget',
  'cli/cli',
  'device-sync/sync-processes',
  'data-export/export-job-queue',
  'platform/scope-matrix',
  'auth/lockout',
].map((name) => `/apps/server/test/${name}.int.test.ts`);

/** Integration first (its long files start at once); the short unit files fill in at the end. */
const PROJECT_ORDER = ['integration', 'simulators', 'unit'];

const rank = (spec: TestSpecification) => {
  const project = PROJECT_ORDER.indexOf(spec.project.name);
  const long = LONG_FILES.some((f) => spec.moduleId.endsWith(f)) ? 0 : 1;
  return (project === -1 ? PROJECT_ORDER.length : project) * 2 + long;
};

export class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { shuffle, seed } = this.ctx.config.sequence;
    // Unshuffled (a plain `vitest run`): Vitest's own order (longest last time first).
    const ordered = shuffle ? shuffled([...files], seed ?? Date.now()) : await super.sort(files);
    // Array.prototype.sort is stable: within a rank the shuffled order stays.
    return ordered.sort((a, b) => rank(a) - rank(b));
  }
}
