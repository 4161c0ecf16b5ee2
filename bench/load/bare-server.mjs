// The anchors of the load bench: bare Fastify routes on the same database,
// with the server's pool size, running the SQL of GET
// /api/trialParticipants/{trialId} from the server's build and nothing else
// (no hooks, validation, logging or compression):
// - /bare-session/…: the same SQL as the route, the session lookup the cookie
//   names (auth repo findSessionAuth: every /api request runs it, decision
//   050) and then the participants repo's query: issue #24's anchor;
// - /bare/…: the participants query alone, without a session (a stricter
//   ceiling, reported beside it).
// Started by bench/load/run.ts with DATABASE_URL, PORT and TEAM_ID. Works on
// builds from before the one-query list too (their two list queries), so the
// bench can measure an older commit. ?page=&pageSize= (the trial page's
// first page) as the route reads them: the repository's windowed query.
import Fastify from 'fastify';
import { openDatabase } from '../../apps/server/dist/db/database.js';
import * as authRepo from '../../apps/server/dist/features/auth/repo.js';
import * as repo from '../../apps/server/dist/features/participants/repo.js';
import { hashToken } from '../../apps/server/dist/security/tokens.js';

const { db, close } = openDatabase(process.env.DATABASE_URL);
const teamId = Number(process.env.TEAM_ID);
const app = Fastify({ logger: false, forceCloseConnections: true });

/** The session the request's cookie names, as the server's onRequest hook looks it up (null: none). */
async function sessionOf(request) {
  const token = /(?:^|;\s*)tw_session=([^;]+)/.exec(request.headers.cookie ?? '')?.[1];
  return token ? authRepo.findSessionAuth(db, hashToken(token)) : null;
}

app.get('/bare-session/trialParticipants/:trialId', async (request, reply) => {
  if (!(await sessionOf(request))) return reply.code(401).send('{}');
  return participantsAnswer(request, reply);
});

app.get('/bare/trialParticipants/:trialId', participantsAnswer);

async function participantsAnswer(request, reply) {
  const trialId = Number(request.params.trialId);
  reply.type('application/json; charset=utf-8');
  if (repo.trialParticipantsJson) {
    // As an Admin of the team (sees every trial): the same query the route runs.
    const { page: p, pageSize } = request.query;
    const page = p || pageSize ? { page: Number(p ?? 1), pageSize: Number(pageSize ?? 50) } : undefined;
    const row = await repo.trialParticipantsJson(db, {
      page,
      scope: { teamId, trialUserId: null }, // an all-trials scope (older builds read teamId/role)
      teamId,
      userId: 0,
      role: 'Admin',
      trialId,
      hidden: [],
      now: new Date().toISOString(),
    });
    const paging = page ? `,"page":${page.page},"pageSize":${page.pageSize},"total":${row.total}` : '';
    return `{"hiddenFields":[],"participants":${row.participants}${paging}}`;
  }
  const [rows, devices] = await Promise.all([
    repo.listTrialParticipants(db, teamId, trialId),
    repo.authorizedProvidersByParticipant(db, teamId, trialId),
  ]);
  return JSON.stringify({
    hiddenFields: [],
    participants: rows.map((r) => ({ ...r, authorized_devices: devices.get(r.id) ?? [] })),
  });
}

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('bare server up');
const stop = async () => {
  setTimeout(() => process.exit(0), 5000).unref(); // queued requests are not worth waiting for
  await app.close();
  await close();
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
