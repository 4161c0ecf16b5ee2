/*
 * The control API of the Google Health simulator (tests and training,
 * mounted only with `control: true`): besides the shared clock, token and
 * failure controls, the people (zones, identity, devices), the rate limit,
 * the configuration, webhook notifications, and a reset to the start.
 */
import { isKnownZone } from '@trialwear/zone';
import type { FastifyInstance } from 'fastify';
import { registerDeviceControlRoutes } from '../fitbit/device-control-routes.js';
import { resetFitbitDeviceState } from '../fitbit/fitbit-device-state.js';
import { personSeed } from '../oauth/common.js';
import { type CallCounter, registerControlRoutes } from '../oauth/control-routes.js';
import { DEFAULT_CONFIG, type GoogleHealthConfig } from './gh-config.js';
import { GoogleApiError } from './gh-json.js';
import { changeZone, type DeviceOverride } from './person.js';
import type { SimState } from './sim-state.js';
import type { Webhooks } from './webhooks.js';

export function registerGoogleHealthControl(
  app: FastifyInstance,
  {
    enabled,
    state,
    calls,
    webhooks,
  }: { enabled: boolean; state: SimState; calls: CallCounter; webhooks: Webhooks },
) {
  const { clock } = state;
  const personOf = (body: unknown) => {
    const id = (body as { userId?: string } | undefined)?.userId ?? '';
    const p = state.people.find(id);
    if (!p) throw new GoogleApiError(404, `Unknown simulated user: ${id}`);
    return p;
  };
  registerControlRoutes(app, {
    enabled,
    store: state.store,
    clock,
    calls,
    failNext: (next) => {
      state.failNext = next;
    },
    extra: (a) => {
      /** The simulated person of a consent state or a user id: ids, zone history. */
      a.get('/_control/person', async (request) => {
        const q = request.query as { userId?: string; state?: string };
        const p = q.state ? state.people.forConsent({ state: q.state }, state.legacyClientId) : personOf(q);
        return {
          healthUserId: p.healthUserId,
          legacyFitbitUserId: p.dataUserId,
          legacyUserId: p.legacyUserId,
          zones: p.zones.map((z) => ({
            from: Number.isFinite(z.from) ? new Date(z.from).toISOString() : null,
            timeZone: z.tz,
          })),
          seed: q.state ? personSeed({ state: q.state }) : undefined,
        };
      });
      /** Move a person to another IANA zone from an instant (default: now). */
      a.post('/_control/time-zone', async (request) => {
        const b = request.body as { userId: string; timeZone: string; from?: string };
        const p = personOf(b);
        if (!isKnownZone(b.timeZone)) throw new GoogleApiError(400, `Unknown time zone: ${b.timeZone}`);
        const from = b.from ? Date.parse(b.from) : clock.now().getTime();
        if (Number.isNaN(from)) throw new GoogleApiError(400, `Invalid instant: ${b.from}`);
        changeZone(p, b.timeZone, from);
        return {
          ok: true,
          zones: p.zones.map((z) => ({
            from: Number.isFinite(z.from) ? new Date(z.from).toISOString() : null,
            timeZone: z.tz,
          })),
        };
      });
      /** Identity and devices: legacyUserId (null: none), a device's battery and last sync. */
      a.post('/_control/user', async (request) => {
        const b = request.body as {
          userId: string;
          legacyUserId?: string | null;
          notLinked?: boolean;
          tracker?: DeviceOverride;
          scale?: DeviceOverride;
        };
        const p = personOf(b);
        if (b.legacyUserId !== undefined) p.legacyUserId = b.legacyUserId;
        if (b.notLinked !== undefined) p.notLinked = b.notLinked;
        if (b.tracker) p.devices.TRACKER = { ...p.devices.TRACKER, ...b.tracker };
        if (b.scale) p.devices.SCALE = { ...p.devices.SCALE, ...b.scale };
        return { ok: true };
      });
      /**
       * The tracker (wear, battery, sync stop), shared with the legacy Fitbit simulator: same person.
       * `userId`: a healthUserId or legacy Fitbit id this simulator knows, or a legacy Fitbit id.
       */
      registerDeviceControlRoutes(a, {
        clock,
        userOf: (id) => {
          const known = state.people.find(id);
          if (known) return known.dataUserId;
          if (/^[A-Z0-9]{6}$/.test(id)) return id;
          throw new GoogleApiError(404, `Unknown simulated user: ${id}`);
        },
      });
      /** Use up this minute's requests (one user, or everyone without a userId). */
      a.post('/_control/exhaust-rate-limit', async (request) => {
        const { userId } = (request.body ?? {}) as { userId?: string };
        state.exhausted.set(userId ?? '*', Math.floor(clock.now().getTime() / 60_000));
        return { ok: true };
      });
      a.post('/_control/reset-rate-limit', async () => {
        state.exhausted.clear();
        state.usage.clear();
        return { ok: true };
      });
      a.get('/_control/config', async () => state.config);
      a.post('/_control/config', async (request) => {
        const b = (request.body ?? {}) as Partial<GoogleHealthConfig>;
        for (const k of Object.keys(b))
          if (!(k in DEFAULT_CONFIG)) throw new GoogleApiError(400, `Unknown configuration key: ${k}`);
        state.setConfig(b);
        return state.config;
      });
      /**
       * Data changed: notify the subscribers (§5.3). One event `{userId, dataType, dates}`
       * or `events: [...]` batched into one array per subscriber; answers the deliveries.
       */
      a.post('/_control/notify', async (request) => {
        const b = (request.body ?? {}) as {
          userId?: string;
          dataType?: string;
          dates?: string[];
          date?: string;
          operation?: string;
          events?: Array<{ userId: string; dataType: string; dates: string[]; operation?: string }>;
        };
        // Users by healthUserId or legacy Fitbit id.
        const events = b.events?.map((e) => ({ ...e, userId: personOf(e).healthUserId })) ?? [
          {
            userId: personOf(b).healthUserId,
            dataType: b.dataType ?? '',
            dates: b.dates ?? (b.date ? [b.date] : []),
            ...(b.operation && { operation: b.operation }),
          },
        ];
        return { deliveries: await webhooks.notify(events) };
      });
      a.get('/_control/deliveries', async () => ({ deliveries: webhooks.deliveries }));
      a.get('/_control/webhook-public-key', async (_request, reply) =>
        reply.type('text/plain').send(webhooks.publicKey),
      );
      a.post('/_control/webhooks/reset', async () => {
        webhooks.reset();
        return { ok: true };
      });
      /** Back to the start: configuration, people (zones, identity, devices), tracker overrides (both APIs), rate limits, failures, counters, clock. Tokens stay. */
      a.post('/_control/reset', async () => {
        state.reset();
        resetFitbitDeviceState();
        calls.reset();
        clock.reset();
        return { ok: true };
      });
    },
  });
}
