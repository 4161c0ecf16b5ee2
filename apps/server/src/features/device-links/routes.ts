/*
 * HTTP for device links. The spec's per-provider paths (core §7:
 * /fitbit-callback, /omronRevokeToken, …) and our own generic ones for what
 * the spec leaves open (device list, consent request, authorize URL). Who
 * may call each is in the contract's API_ACCESS table, applied centrally.
 */
import {
  authorizeUrlResultSchema,
  consentRequestResultSchema,
  deviceEntrySchema,
  linkActionResultSchema,
  linkStatusSchema,
  PROVIDER_BRAND,
  PROVIDERS,
  type Provider,
  participantAuthResultSchema,
  providerClientIdResultSchema,
  providerSchema,
  tokenStatusSchema,
} from '@trialwear/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { actorOf } from '../../http/actor.js';
import { idSchema } from '../../http/params.js';
import { authorizeUrl, completeConsent, requestConsent } from './consent-flow.js';
import {
  isAuthorized,
  linkStatus,
  listDevices,
  refreshParticipantToken,
  revokeParticipant,
  tokenStatus,
} from './service.js';

const tags = ['devices'];
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

/** `syncSoon` starts a new link's sync at once (jobs/device-sync), passed in by the app. */
export function registerDeviceLinkRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  syncSoon: (ctx: AppContext, deviceId: number) => Promise<unknown>,
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const client = (provider: Provider) => ctx.providers[provider];
  const participantParams = z.object({ participantId: idSchema, provider: providerSchema });

  r.get(
    '/api/participantDevices/:participantId/:provider',
    {
      schema: {
        tags,
        summary:
          "The participant's devices at a provider (battery, version, type, last sync) or one error entry",
        params: participantParams,
        response: { 200: z.array(deviceEntrySchema) },
      },
    },
    async (request) =>
      listDevices(ctx, client(request.params.provider), actorOf(request), request.params.participantId),
  );

  r.get(
    '/api/participantDevices/:participantId/:provider/status',
    {
      schema: {
        tags,
        summary: "The participant's link to a provider: none, pending, authorized, revoked or error",
        params: participantParams,
        response: { 200: linkStatusSchema },
      },
    },
    async (request) =>
      linkStatus(ctx, client(request.params.provider), actorOf(request), request.params.participantId),
  );

  r.get(
    '/api/participantDevices/:participantId/:provider/token',
    {
      schema: {
        tags,
        summary:
          "The participant's token for a provider: link status, scopes, expiry, last change (never the token)",
        params: participantParams,
        response: { 200: tokenStatusSchema },
      },
    },
    async (request) =>
      tokenStatus(ctx, client(request.params.provider), actorOf(request), request.params.participantId),
  );

  r.post(
    '/api/participantDevices/:participantId/:provider/consentRequest',
    {
      schema: {
        tags,
        summary: 'Email the participant a consent link (returned too, for teams that keep no emails)',
        params: participantParams,
        response: { 200: consentRequestResultSchema },
      },
    },
    async (request) =>
      requestConsent(ctx, client(request.params.provider), actorOf(request), request.params.participantId),
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
        params: z.object({ provider: providerSchema }),
        querystring: z.object({ id: idSchema, t: z.string().min(1) }),
        response: { 200: authorizeUrlResultSchema },
      },
    },
    async (request) => authorizeUrl(ctx, client(request.params.provider), request.query.id, request.query.t),
  );

  for (const provider of PROVIDERS) {
    const brand = PROVIDER_BRAND[provider];
    r.get(
      `/api/${provider}ClientId`,
      {
        schema: {
          tags,
          summary: `The ${brand} client id in use`,
          response: { 200: providerClientIdResultSchema },
        },
      },
      async () => ({
        clientId: client(provider).settings.clientId,
        simulated: client(provider).settings.simulated,
      }),
    );
    r.post(
      `/api/${provider}-callback`,
      {
        config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
        schema: {
          tags,
          summary: `Finish a ${brand} consent: exchange the code, store the tokens`,
          body: callbackBody,
          response: { 200: linkActionResultSchema },
        },
      },
      async (request) =>
        completeConsent(ctx, client(provider), request.body.authCode, request.body.state, request.ip, (id) =>
          syncSoon(ctx, id),
        ),
    );
    r.post(
      `/api/${provider}RefreshToken`,
      {
        schema: {
          tags,
          summary: `Refresh the participant's ${brand} token`,
          body: z.object({ id: idSchema }),
          response: { 200: linkActionResultSchema },
        },
      },
      async (request) => refreshParticipantToken(ctx, client(provider), actorOf(request), request.body.id),
    );
  }

  for (const provider of ['fitbit', 'omron'] as const) {
    r.get(
      `/api/${provider}IsParticipantAuth/:id`,
      {
        schema: {
          tags,
          summary: `Whether the participant has an authorized ${PROVIDER_BRAND[provider]}`,
          params: z.object({ id: idSchema }),
          response: { 200: participantAuthResultSchema },
        },
      },
      async (request) => isAuthorized(ctx, client(provider), actorOf(request), request.params.id),
    );
  }

  // The spec revokes Fitbit with a GET; it changes state, so the CSRF check covers it too (http/csrf.ts).
  r.get(
    '/api/revokeAccessToken/:id',
    {
      schema: {
        tags,
        summary: "Revoke the participant's Fitbit access (needs the CSRF header)",
        params: z.object({ id: idSchema }),
        response: { 200: linkActionResultSchema },
      },
    },
    async (request) => revokeParticipant(ctx, client('fitbit'), actorOf(request), request.params.id),
  );
  for (const provider of ['omron', 'dexcom'] as const) {
    r.post(
      `/api/${provider}RevokeToken`,
      {
        schema: {
          tags,
          summary: `Revoke the participant's ${PROVIDER_BRAND[provider]} access`,
          body: z.object({ id: idSchema }),
          response: { 200: linkActionResultSchema },
        },
      },
      async (request) => revokeParticipant(ctx, client(provider), actorOf(request), request.body.id),
    );
  }
}
