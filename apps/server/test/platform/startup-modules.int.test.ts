/*
 * What a server, worker or CLI process loads when it starts: not the
 * libraries only a rare request needs. exceljs (an XLSX participant import or
 * template) and the AWS SDK (export files in S3, EXPORT_S3_BUCKET) were more
 * than a third of loading the server's modules, paid by every start of a
 * server, worker and CLI command (about a hundred in this suite); they are
 * imported on first use. The modules are imported in a process of their own,
 * as the built server imports them, and the CommonJS modules it loaded are
 * read off require.cache when it exits (support/report-required.cjs).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { repoRoot, serverModule } from '../support/processes.js';

/** The npm packages (CommonJS) a process loaded after importing these server modules. */
function packagesLoadedBy(modules: string[]): Set<string> {
  const imports = modules.map(
    (m) => `await import(${JSON.stringify(pathToFileURL(path.join(repoRoot, serverModule(m).file)).href)});`,
  );
  const res = spawnSync(
    process.execPath,
    [
      ...serverModule(modules[0]!).flags,
      '--require',
      path.join(repoRoot, 'apps/server/test/support/report-required.cjs'),
      '--input-type=module',
      '-e',
      imports.join('\n'),
    ],
    { cwd: repoRoot, encoding: 'utf8' },
  );
  expect(res.status, res.stderr).toBe(0);
  const line = res.stdout.split('\n').find((l) => l.startsWith('REQUIRED '));
  expect(line, res.stdout).toBeDefined();
  const files: string[] = JSON.parse(line!.slice('REQUIRED '.length));
  return new Set(files.flatMap((f) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(f)?.[1] ?? []));
}

describe('modules loaded at start', () => {
  it('the app and the job workers load neither exceljs nor the AWS SDK until a request needs them', () => {
    const loaded = packagesLoadedBy(['http/app', 'jobs/registry']);
    // The check sees what was loaded: the web framework and the database driver are there.
    expect(loaded).toContain('fastify');
    expect(loaded).toContain('pg');
    expect([...loaded].filter((p) => p === 'exceljs' || p.startsWith('@aws-sdk/'))).toEqual([]);
  });
});
