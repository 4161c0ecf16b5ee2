/*
 * A Google Health simulator on a real port and a Google Health data reader
 * pointed at it, for the reader's own tests (no portal, no database): the
 * consent and code exchange, a simulated person moved to a chosen zone, and
 * the reader's read and toSeries of a tracker path.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  GOOGLE_HEALTH_SCOPES,
  type GoogleHealthConfig,
  googleHealthSimulator,
  SimClock,
} from '@trialwear/simulators';
import Fastify from 'fastify';
import { createGoogleHealthClient } from '../../src/providers/fitbit/google-health/google-health-client.js';
import type { GoogleHealthSettings } from '../../src/providers/fitbit/google-health/settings.js';
import type { ProviderAnswer, ProviderDataReader } from '../../src/providers/types.js';

const CLIENT = {
  clientId: 'reader-test.apps.googleusercontent.com',
  clientSecret: 'GOCSPX-reader-test',
  redirectUris: ['http://127.0.0.1:9/fitbit-callback'],
};

export interface SimReader {
  base: string;
  reader: ProviderDataReader;
  /** A linked person living in `timeZone` (since long before any date read): their access token. */
  personIn(state: string, timeZone: string): Promise<string>;
  /** The reader's answer of a tracker path (a failure throws). */
  read(token: string, path: string): Promise<ProviderAnswer>;
  close(): Promise<void>;
}

export async function startSimReader(
  now: string,
  config: Partial<GoogleHealthConfig> = {},
): Promise<SimReader> {
  const app = Fastify();
  const clock = new SimClock();
  clock.set(new Date(now));
  await app.register(googleHealthSimulator, {
    prefix: '/sim/google-health',
    control: true,
    clients: [CLIENT],
    clock,
    legacyFitbitClientId: 'READERTEST',
    // The equality test reads hundreds of paths for one person within a minute.
    config: { requestsPerUserPerMinute: 1_000_000, ...config },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/sim/google-health`;
  const client = createGoogleHealthClient({
    simulated: true,
    clientId: CLIENT.clientId,
    clientSecret: CLIENT.clientSecret,
    authorizeUrl: `${base}/o/oauth2/v2/auth`,
    apiUrl: base,
    tokenUrl: `${base}/token`,
    revokeUrl: `${base}/revoke`,
    redirectUri: CLIENT.redirectUris[0]!,
    scopes: GOOGLE_HEALTH_SCOPES,
    pkce: true,
  } as GoogleHealthSettings);
  const reader = client.data!;

  async function personIn(state: string, timeZone: string) {
    const verifier = randomBytes(32).toString('base64url');
    const q = new URLSearchParams({
      client_id: CLIENT.clientId,
      redirect_uri: CLIENT.redirectUris[0]!,
      response_type: 'code',
      scope: GOOGLE_HEALTH_SCOPES.join(' '),
      state,
      access_type: 'offline',
      prompt: 'consent',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    const html = await (await fetch(`${base}/o/oauth2/v2/auth?${q}`)).text();
    const body = new URLSearchParams(
      [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(
        (m): [string, string] => [m[1]!, m[2]!],
      ),
    );
    for (const m of html.matchAll(/name="scope_item" value="([^"]+)"/g)) body.append('scope_item', m[1]!);
    body.set('decision', 'allow');
    const back = await fetch(`${base}/o/oauth2/v2/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
      redirect: 'manual',
    });
    const code = new URL(back.headers.get('location')!).searchParams.get('code')!;
    const tokens = await client.oauth.exchangeCode(code, verifier);
    if (!tokens.ok) throw new Error(`code exchange: ${tokens.message}`);
    const moved = await fetch(`${base}/_control/time-zone`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userId: tokens.data.providerUserId, timeZone, from: '2000-01-01T00:00:00Z' }),
    });
    if (!moved.ok) throw new Error(`time-zone: ${await moved.text()}`);
    return tokens.data.access_token;
  }

  async function read(token: string, path: string) {
    const r = await reader.read(token, { resource: 'tracker', params: { path } });
    if (!r.ok) throw new Error(`${path}: ${r.status} ${r.errorType} ${r.message}`);
    return r.data;
  }

  return { base, reader, personIn, read, close: () => app.close() };
}
