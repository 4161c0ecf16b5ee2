/*
 * The access module's promise, checked on the source: a scope value is made
 * only by the rules of `access/` (no file elsewhere imports `mintScope` or
 * casts to a scope type), system scopes are taken only by work no person
 * asked for through a route (seed, CLI, jobs), and no repo of a feature takes
 * a bare team, trial or participant id, so a query that skipped the scope
 * check does not compile. The repos' allow-list below names each exception
 * and why.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rel = (f: string) => path.relative(src, f).replaceAll(path.sep, '/');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [full] : [];
  });
}

const files = sourceFiles(src);
const SCOPE_TYPES =
  'TeamScope|TrialsScope|TrialScope|ParticipantScope|ExportJobScope|HealthAlertScope|AnyScope';

/** Parameter names that carry the id of a team's object. */
const ID_NAMES = new Set(['teamId', 'trialId', 'participantId', 'jobId', 'alertId']);

/**
 * Repo functions that take such an id on purpose, each with its reason.
 * Keep it short: a new entry needs a reason as good as these.
 */
const REPO_EXCEPTIONS: Record<string, string> = {
  // Reads the participant portal's own links by the signed-in participant account, not a staff scope.
  'features/participant-portal/repo.ts': 'participant sessions are scoped by their account',
  // Sign-up, sessions and team membership: the team is the session's or the invitation's, never a route's.
  'features/auth/repo.ts': 'session lookup by token',
  'features/signup/repo.ts': 'the team comes from a signed invitation',
  'features/teams/repo.ts': 'team administration by the CLI and the session',
  'features/users/repo.ts': 'user administration by the CLI and the session',
  'features/audit-trail/repo.ts': 'Sys_Admin only, platform-wide',
  'features/db-info/repo.ts': 'Sys_Admin only, platform-wide',
  // The Google Health webhook names links by the provider's user id, verified by signature.
  'features/google-health-webhooks/repo.ts': 'provider webhooks, verified by signature',
  // The write path of the sync and the seed (no person's request reaches it).
  'features/readings/repo.ts': 'written by the background sync only',
  // One function each:
  'features/participants/repo.ts trialParticipantsJson':
    'the trial id is looked up only within the TrialsScope it is given, in the same query (the hottest route: one round trip)',
  'features/device-links/repo.ts insertOAuthState':
    'the public consent flow: the participant comes from a consent link verified just before',
  'features/device-links/repo.ts spendOAuthState':
    'the public consent callback: the state is the signed grant',
};

describe('access boundary', () => {
  it('makes scope values only in access/', () => {
    const offenders = files
      .filter((f) => !rel(f).startsWith('access/'))
      .filter((f) => {
        const text = fs.readFileSync(f, 'utf8');
        return (
          /\bmintScope\b/.test(text) ||
          /access\/scope\.js'/.test(text) ||
          new RegExp(`\\bas (unknown as )?(${SCOPE_TYPES})\\b|<(${SCOPE_TYPES})>\\s*\\{`).test(text)
        );
      })
      .map(rel);
    expect(offenders).toEqual([]);
  });

  it('takes system scopes only in the seed, the CLI and jobs', () => {
    const users = files
      .filter((f) => /access\/system\.js'/.test(fs.readFileSync(f, 'utf8')))
      .map(rel)
      .filter((f) => !/^(seed|cli|jobs)\//.test(f));
    expect(users).toEqual([]);
  });

  it("lets no feature's repo take a bare team, trial or participant id", () => {
    const repos = files.filter((f) => /^features\/[^/]+\/repo\.ts$/.test(rel(f)) && !REPO_EXCEPTIONS[rel(f)]);
    expect(repos.length).toBeGreaterThan(8);
    const offenders: string[] = [];
    for (const file of repos) {
      const sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const check = (name: string, params: readonly ts.ParameterDeclaration[]) => {
        for (const p of params) {
          const bare = ts.isIdentifier(p.name) && ID_NAMES.has(p.name.text);
          const inLiteral =
            p.type &&
            ts.isTypeLiteralNode(p.type) &&
            p.type.members.some((m) => m.name && ts.isIdentifier(m.name) && ID_NAMES.has(m.name.text));
          if ((bare || inLiteral) && !REPO_EXCEPTIONS[`${rel(file)} ${name}`])
            offenders.push(`${rel(file)} ${name}(${p.name.getText(sf)})`);
        }
      };
      for (const st of sf.statements) {
        const exported = ts
          .getModifiers(st as ts.HasModifiers)
          ?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
        if (!exported) continue;
        if (ts.isFunctionDeclaration(st) && st.name) check(st.name.text, st.parameters);
        if (ts.isVariableStatement(st))
          for (const d of st.declarationList.declarations)
            if (
              d.initializer &&
              (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer))
            )
              check(d.name.getText(sf), d.initializer.parameters);
      }
    }
    expect(offenders).toEqual([]);
  });
});
