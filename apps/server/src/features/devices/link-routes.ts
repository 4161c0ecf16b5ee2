/*
 * HTTP for device links. The spec's per-provider paths (core §7:
 * /fitbit-callback, /omronRevokeToken, …) and our own generic ones for what
 * the spec leaves open (device list, consent request, authorize URL).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { actorOf } from '../../http/actor.js';
import { CSRF_COOKIE, CSRF_HEADER } from '../../http/csrf.js';
import { AppError } from '../../http/errors.js';
import { guardFor } from '../auth/session.js';
import { dexcomAdapter } from '../dexcom/dexcom-adapter.js';
import { fitbitAdapter } from '../fitbit/fitbit-adapter.js';
import { omronAdapter } from '../omron/omron-adapter.js';
import {
  authorizeUrl,
  completeConsent,
  isAuthorized,
  linkStatus,
  listDevices,
  refreshParticipantToken,
  requestConsent,
  revokeParticipant,
} from './link-service.js';
import { PROVIDERS, type Provider, type ProviderAdapter } from './provider-adapter.js';

export const ADAPTERS: Record<Provider, ProviderAdapter> = {
  fitbit: fitbitAdapter,
  omron: omronAdapter,
  dexcom: dexcomAdapter,
};

const tags = ['devices'];
const id = z.coerce.number().int().positive();
const ok = z.object({ success: z.boolean(), message: z.string() });
const deviceEntry = z.object({
  device: z.enum(['fitness tracker', 'scale', 'glucose monitor', 'Error']),
  batteryLevel: z.number().nullable(),
  battery: z.string().nullable(),
  deviceVersion: z.string().nullable(),
  deviceType: z.enum(['TRACKER', 'SCALE', 'BLOOD_PRESSURE', 'CGM']).nullable(),
  lastSyncTime: z.string().nullable(),
  hasError: z.boolean(),
  errorType: z.string().nullable(),
});
/** The callbacks carry the signed state as participantId (Fitbit) or participantData (Omron, Dexcom). */
const callbackBody = z
  .object({
    authCode: z.string().min(1),
    participantId: z.string().optional(),
    participantData: z.union([z.string(), z.object({ state: z.string() })]).optional(),
  })
  .transform((b) => ({
    authCode: b.authCode,
    state:
      b.participantId ??
      (typeof b.participantData === 'string' ? b.participantData : b.participantData?.state) ??
      '',
  }));

/** A state-changing GET of the spec (revokeAccessToken) needs the CSRF header like any write. */
async function requireCsrfHeader(request: FastifyRequest) {
  const header = request.headers[CSRF_HEADER];
  if (typeof header !== 'string' || header !== request.cookies[CSRF_COOKIE])
    throw new AppError(403, 'Invalid or missing CSRF token', 'CsrfError');
}

export function registerDeviceLinkRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const providerParam = z.enum(PROVIDERS);

  r.get(
    '/api/participantDevices/:participantId/:provider',
    {
      onRequest: guardFor('GET /api/participantDevices/:participantId/:provider'),
      schema: {
        tags,
        summary:
          "The participant's devices at a provider (battery, version, type, last sync) or one error entry",
        params: z.object({ participantId: id, provider: providerParam }),
        response: { 200: z.array(deviceEntry) },
      },
    },
    async (request) =>
      listDevices(ctx, ADAPTERS[request.params.provider], actorOf(request), request.params.participantId),
  );

  r.get(
    '/api/participantDevices/:participantId/:provider/status',
    {
      onRequest: guardFor('GET /api/participantDevices/:participantId/:provider/status'),
      schema: {
        tags,
        summary: "The participant's link to a provider: none, pending, authorized, revoked or error",
        params: z.object({ participantId: id, provider: providerParam }),
        response: {
          200: z.object({
            status: z.enum(['none', 'pending', 'authorized', 'revoked', 'error']),
            authorizationDate: z.string().nullable(),
            revokeAvailable: z.boolean(),
          }),
        },
      },
    },
    async (request) =>
      linkStatus(ctx, ADAPTERS[request.params.provider], actorOf(request), request.params.participantId),
  );

  r.post(
    '/api/participantDevices/:participantId/:provider/consentRequest',
    {
      onRequest: guardFor('POST /api/participantDevices/:participantId/:provider/consentRequest'),
      schema: {
        tags,
        summary: 'Email the participant a consent link (returned too, for teams that keep no emails)',
        params: z.object({ participantId: id, provider: providerParam }),
        response: { 200: z.object({ success: z.boolean(), emailed: z.boolean(), link: z.string() }) },
      },
    },
    async (request) =>
      requestConsent(ctx, ADAPTERS[request.params.provider], actorOf(request), request.params.participantId),
  );

  // Public: the participant's browser on the consent page, not a staff session.
  r.get(
    '/api/consent/:provider/authorizeUrl',
    {
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary:
          "The provider's authorize URL for a consent link (signed single-use state; PKCE where supported)",
        params: z.object({ provider: providerParam }),
        querystring: z.object({ id, t: z.string().min(1) }),
        response: { 200: z.object({ url: z.string() }) },
      },
    },
    async (request) =>
      authorizeUrl(ctx, ADAPTERS[request.params.provider], request.query.id, request.query.t),
  );

  for (const provider of PROVIDERS) {
    const a = ADAPTERS[provider];
    r.get(
      `/api/${provider}ClientId`,
      {
        onRequest: guardFor(`GET /api/${provider}ClientId`),
        schema: {
          tags,
          summary: `The ${a.brand} client id in use`,
          response: { 200: z.object({ clientId: z.string(), simulated: z.boolean() }) },
        },
      },
      async () => {
        const s = a.settings(ctx);
        return { clientId: s.clientId, simulated: s.simulated };
      },
    );
    r.post(
      `/api/${provider}-callback`,
      {
        config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
        schema: {
          tags,
          summary: `Finish a ${a.brand} consent: exchange the code, store the tokens`,
          body: callbackBody,
          response: { 200: ok },
        },
      },
      async (request) => completeConsent(ctx, a, request.body.authCode, request.body.state, request.ip),
    );
    r.post(
      `/api/${provider}RefreshToken`,
      {
        onRequest: guardFor(`POST /api/${provider}RefreshToken`),
        schema: {
          tags,
          summary: `Refresh the participant's ${a.brand} token`,
          body: z.object({ id }),
          response: { 200: ok },
        },
      },
      async (request) => refreshParticipantToken(ctx, a, actorOf(request), request.body.id),
    );
  }

  for (const provider of ['fitbit', 'omron'] as const) {
    r.get(
      `/api/${provider}IsParticipantAuth/:id`,
      {
        onRequest: guardFor(`GET /api/${provider}IsParticipantAuth/:id`),
        schema: {
          tags,
          summary: `Whether the participant has an authorized ${ADAPTERS[provider].brand}`,
          params: z.object({ id }),
          response: { 200: z.object({ message: z.enum(['found', 'not found']) }) },
        },
      },
      async (request) => isAuthorized(ctx, ADAPTERS[provider], actorOf(request), request.params.id),
    );
  }

  r.get(
    '/api/revokeAccessToken/:id',
    {
      onRequest: [guardFor('GET /api/revokeAccessToken/:id'), requireCsrfHeader],
      schema: {
        tags,
        summary: "Revoke the participant's Fitbit access (needs the CSRF header)",
        params: z.object({ id }),
        response: { 200: ok },
      },
    },
    async (request) => revokeParticipant(ctx, fitbitAdapter, actorOf(request), request.params.id),
  );
  for (const provider of ['omron', 'dexcom'] as const) {
    r.post(
      `/api/${provider}RevokeToken`,
      {
        onRequest: guardFor(`POST /api/${provider}RevokeToken`),
        schema: {
          tags,
          summary: `Revoke the participant's ${ADAPTERS[provider].brand} access`,
          body: z.object({ id }),
          response: { 200: ok },
        },
      },
      async (request) => revokeParticipant(ctx, ADAPTERS[provider], actorOf(request), request.body.id),
    );
  }
}
