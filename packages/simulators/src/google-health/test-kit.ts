/*
 * What the Google Health conformance tests share: a simulator on a real
 * port (beside the legacy Fitbit simulator, so one consent state can be
 * compared on both APIs), the consent and token steps, and calls with a
 * bearer token. Not part of the build (tsconfig excludes it).
 */
import { createHash, randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { SimClock } from '../clock.js';
import { fitbitSimulator } from '../fitbit/fitbit-simulator.js';
import type { GoogleHealthConfig } from './gh-config.js';
import { googleHealthSimulator } from './google-health-simulator.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, their shape is what the assertions check
export type Json = any;

export const CLIENT = {
  clientId: 'gh-test.apps.googleusercontent.com',
  clientSecret: 'GOCSPX-test',
  redirectUris: ['http://127.0.0.1:9/fitbit-callback'],
};
export const LEGACY_CLIENT = 'LEGACYAPP';
const P = 'https://www.googleapis.com/auth/googlehealth.';
export const ALL_SCOPES = [
  'activity_and_fitness',
  'health_metrics_and_measurements',
  'sleep',
  'settings',
  'profile',
  'nutrition',
].map((s) => `${P}${s}.readonly`);
export const scopeOf = (s: string) => `${P}${s}.readonly`;

export interface Sim {
  app: FastifyInstance;
  base: string;
  clock: SimClock;
  close(): Promise<void>;
}

export async function startSim(config: Partial<GoogleHealthConfig> = {}): Promise<Sim> {
  const app = Fastify();
  const clock = new SimClock();
  await app.register(googleHealthSimulator, {
    prefix: '/sim/google-health',
    control: true,
    clients: [CLIENT],
    clock,
    legacyFitbitClientId: LEGACY_CLIENT,
    config,
  });
  await app.register(fitbitSimulator, {
    prefix: '/sim/fitbit',
    control: true,
    clients: [{ clientId: LEGACY_CLIENT, clientSecret: 'x', redirectUris: CLIENT.redirectUris }],
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/sim/google-health`;
  return { app, base, clock, close: () => app.close() };
}

export const form = (b: Record<string, string>) => new URLSearchParams(b).toString();

/** Open the consent page and press Allow (optionally unticking scopes). */
export async function consent(
  sim: Sim,
  p: {
    state: string;
    scope?: string[];
    accessType?: string;
    prompt?: string;
    untick?: string[];
    deny?: boolean;
    pkce?: boolean;
    includeGranted?: boolean;
  },
) {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const scope = (p.scope ?? ALL_SCOPES).join(' ');
  const q: Record<string, string> = {
    client_id: CLIENT.clientId,
    redirect_uri: CLIENT.redirectUris[0]!,
    response_type: 'code',
    scope,
    state: p.state,
    access_type: p.accessType ?? 'offline',
    prompt: p.prompt ?? 'consent',
    include_granted_scopes: p.includeGranted === false ? 'false' : 'true',
  };
  if (p.pkce !== false) Object.assign(q, { code_challenge: challenge, code_challenge_method: 'S256' });
  const page = await fetch(`${sim.base}/o/oauth2/v2/auth?${form(q)}`);
  const html = await page.text();
  const hidden = Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!]),
  );
  const boxes = [...html.matchAll(/name="scope_item" value="([^"]+)"/g)].map((m) => m[1]!);
  const body = new URLSearchParams(hidden);
  for (const b of boxes) if (!(p.untick ?? []).includes(b)) body.append('scope_item', b);
  body.set('decision', p.deny ? 'deny' : 'allow');
  const back = await fetch(`${sim.base}/o/oauth2/v2/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: body.toString(),
    redirect: 'manual',
  });
  const location = new URL(back.headers.get('location')!);
  return {
    html,
    hidden,
    location,
    code: location.searchParams.get('code'),
    verifier,
    account: hidden.account!,
  };
}

export async function tokenRequest(sim: Sim, body: Record<string, string>) {
  const res = await fetch(`${sim.base}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Consent and code exchange: the token answer. */
export async function link(sim: Sim, state: string, scope: string[] = ALL_SCOPES) {
  const c = await consent(sim, { state, scope });
  const t = await tokenRequest(sim, {
    grant_type: 'authorization_code',
    code: c.code!,
    redirect_uri: CLIENT.redirectUris[0]!,
    client_id: CLIENT.clientId,
    client_secret: CLIENT.clientSecret,
    code_verifier: c.verifier,
  });
  return {
    ...(t.body as { access_token: string; refresh_token?: string; scope: string }),
    account: c.account,
  };
}

export async function api(sim: Sim, token: string, path: string, body?: unknown) {
  const res = await fetch(`${sim.base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Json };
}

export async function control(sim: Sim, path: string, body: object = {}) {
  const res = await fetch(`${sim.base}/_control/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Json;
}

/** A list read to the end (every page), with the number of pages. */
export async function listAll(sim: Sim, token: string, type: string, query: Record<string, string>) {
  const points: Json[] = [];
  let pageToken = '';
  let pages = 0;
  do {
    const q = new URLSearchParams(query);
    if (pageToken) q.set('pageToken', pageToken);
    const r = await api(sim, token, `/v4/users/me/dataTypes/${type}/dataPoints?${q}`);
    if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
    points.push(...(r.body.dataPoints ?? []));
    pageToken = r.body.nextPageToken ?? '';
    pages++;
  } while (pageToken);
  return { points, pages };
}

export const gdate = (d: string) => ({
  year: Number(d.slice(0, 4)),
  month: Number(d.slice(5, 7)),
  day: Number(d.slice(8, 10)),
});
