/*
 * Push notifications (google-health-api.md §5): project-level subscribers
 * managed with a service account's `cloud-platform` token (CRUD under
 * /v4/projects/{project}/subscribers), the two-probe verification of the
 * endpoint on create and update (with the registered secret → 2xx, 201 per
 * the proto; without it → 401/403; otherwise FAILED_PRECONDITION), and
 * batched JSON-array notifications with the registered Authorization and an
 * ECDSA P-256 signature of the body (Google has not published its key: the
 * simulator's public key is at GET /_control/webhook-public-key). AUTOMATIC
 * subscriptions only: every user who granted the data type's read scope is
 * notified. Notifications are sent when the control API says data changed
 * (POST /_control/notify).
 */
import { createSign, generateKeyPairSync } from 'node:crypto';
import { addDays, instantOfLocal } from '@trialwear/zone';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SimClock } from '../clock.js';
import type { OAuthStore } from '../oauth/oauth-store.js';
import { DATA_TYPES } from './data-types/catalogue.js';
import type { GoogleHealthConfig } from './gh-config.js';
import { GoogleApiError, googleError, timestamp } from './gh-json.js';
import { grants } from './google-oauth.js';
import { type People, zoneOfDate } from './person.js';

export const CLOUD_PLATFORM = 'https://www.googleapis.com/auth/cloud-platform';
const SUBSCRIBER_ID = /^[a-z]([a-z0-9-]{2,34}[a-z0-9])$/;

interface SubscriberConfig {
  dataTypes: string[];
  subscriptionCreatePolicy: 'AUTOMATIC' | 'MANUAL';
}
interface Subscriber {
  name: string;
  id: string;
  endpointUri: string;
  secret: string | null;
  subscriberConfigs: SubscriberConfig[];
  createTime: string;
  updateTime: string;
  state: 'UNVERIFIED' | 'ACTIVE' | 'INACTIVE';
}

export interface Delivery {
  subscriber: string;
  endpointUri: string;
  status: number | null;
  body: unknown[];
  headers: Record<string, string>;
}

export class Webhooks {
  private subscribers = new Map<string, Subscriber>();
  readonly deliveries: Delivery[] = [];
  private readonly keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  /** The public key notifications are signed with (PEM, SPKI). */
  readonly publicKey = this.keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();

  constructor(
    private readonly deps: {
      clock: SimClock;
      store: OAuthStore;
      people: People;
      config: () => GoogleHealthConfig;
    },
  ) {}

  reset() {
    this.subscribers.clear();
    this.deliveries.length = 0;
  }

  private view(s: Subscriber) {
    return {
      name: s.name,
      endpointUri: s.endpointUri,
      createTime: s.createTime,
      updateTime: s.updateTime,
      subscriberConfigs: s.subscriberConfigs,
      endpointAuthorization: { secretSet: s.secret !== null },
      state: s.state,
    };
  }

  private operation(s: Subscriber) {
    return {
      name: `operations/${s.id}-${Date.now().toString(36)}`,
      done: true,
      response: {
        '@type': 'type.googleapis.com/google.devicesandservices.health.v4.Subscriber',
        ...this.view(s),
      },
    };
  }

  /** The two probes (§5.2): with the secret → 2xx (or only 201), without → 401/403. */
  private async verify(endpointUri: string, secret: string | null) {
    const probe = async (auth: string | null) => {
      try {
        const res = await fetch(endpointUri, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(auth !== null && { authorization: auth }) },
          body: JSON.stringify({ type: 'verification' }),
          signal: AbortSignal.timeout(10_000),
        });
        await res.arrayBuffer();
        return res.status;
      } catch {
        return 0;
      }
    };
    const withSecret = await probe(secret);
    const ok =
      this.deps.config().verificationSuccessStatus === 201
        ? withSecret === 201
        : withSecret >= 200 && withSecret < 300;
    const without = await probe(null);
    if (!ok || (without !== 401 && without !== 403))
      throw new GoogleApiError(
        400,
        `Endpoint verification failed for ${endpointUri}: the verification request with the registered authorization answered ${withSecret || 'nothing'}, the one without it ${without || 'nothing'} (expected ${this.deps.config().verificationSuccessStatus === 201 ? '201' : '2xx'}, then 401 or 403).`,
        undefined,
        'FAILED_PRECONDITION',
      );
  }

  private payload(b: Record<string, unknown>, base?: Subscriber) {
    const endpointUri = b.endpointUri === undefined ? base?.endpointUri : String(b.endpointUri);
    if (!endpointUri || !/^https?:\/\//.test(endpointUri))
      throw new GoogleApiError(400, 'endpointUri must be an HTTPS URL.');
    const configs = (b.subscriberConfigs ?? base?.subscriberConfigs ?? []) as SubscriberConfig[];
    if (!Array.isArray(configs)) throw new GoogleApiError(400, 'subscriberConfigs must be a list.');
    for (const c of configs) {
      if (!Array.isArray(c.dataTypes) || c.dataTypes.some((t) => !DATA_TYPES.has(t)))
        throw new GoogleApiError(
          400,
          `Unsupported data type in subscriberConfigs: ${JSON.stringify(c.dataTypes)}`,
        );
      if (c.subscriptionCreatePolicy !== 'AUTOMATIC' && c.subscriptionCreatePolicy !== 'MANUAL')
        throw new GoogleApiError(400, 'subscriptionCreatePolicy must be AUTOMATIC or MANUAL.');
    }
    const auth = b.endpointAuthorization as { secret?: string } | undefined;
    const secret = auth === undefined ? (base?.secret ?? null) : (auth.secret ?? null);
    return { endpointUri, configs, secret };
  }

  register(app: FastifyInstance, guard: (request: FastifyRequest, reply: FastifyReply) => boolean) {
    const base = '/v4/projects/:project/subscribers';
    const find = (request: FastifyRequest) => {
      const { project, id } = request.params as { project: string; id: string };
      const s = this.subscribers.get(`projects/${project}/subscribers/${id}`);
      if (!s) throw new GoogleApiError(404, `Subscriber projects/${project}/subscribers/${id} not found.`);
      return s;
    };
    app.post(base, async (request, reply) => {
      if (!guard(request, reply)) return reply;
      const { project } = request.params as { project: string };
      if (!/^\d+$/.test(project))
        throw new GoogleApiError(400, `Invalid project: ${project}. Use the project number, not its id.`);
      const id = (request.query as { subscriberId?: string }).subscriberId ?? '';
      if (!SUBSCRIBER_ID.test(id))
        throw new GoogleApiError(
          400,
          'subscriberId must be 4-36 characters: a lower-case letter, then letters, digits or hyphens.',
        );
      const name = `projects/${project}/subscribers/${id}`;
      if (this.subscribers.has(name)) throw new GoogleApiError(409, `Subscriber ${name} already exists.`);
      const p = this.payload((request.body ?? {}) as Record<string, unknown>);
      await this.verify(p.endpointUri, p.secret);
      const now = timestamp(this.deps.clock.now().getTime());
      const s: Subscriber = {
        name,
        id,
        endpointUri: p.endpointUri,
        secret: p.secret,
        subscriberConfigs: p.configs,
        createTime: now,
        updateTime: now,
        state: 'ACTIVE',
      };
      this.subscribers.set(name, s);
      return this.operation(s);
    });
    app.get(base, async (request, reply) => {
      if (!guard(request, reply)) return reply;
      const { project } = request.params as { project: string };
      const list = [...this.subscribers.values()].filter((s) => s.name.startsWith(`projects/${project}/`));
      return list.length ? { subscribers: list.map((s) => this.view(s)) } : {};
    });
    app.get(`${base}/:id`, async (request, reply) => {
      if (!guard(request, reply)) return reply;
      return this.view(find(request));
    });
    app.patch(`${base}/:id`, async (request, reply) => {
      if (!guard(request, reply)) return reply;
      const s = find(request);
      const mask = ((request.query as { updateMask?: string }).updateMask ?? '').split(',').filter(Boolean);
      const b = (request.body ?? {}) as Record<string, unknown>;
      const picked: Record<string, unknown> = {};
      if (mask.includes('endpoint_uri')) picked.endpointUri = b.endpointUri;
      if (mask.includes('subscriber_configs')) picked.subscriberConfigs = b.subscriberConfigs;
      if (mask.includes('endpoint_authorization'))
        picked.endpointAuthorization = b.endpointAuthorization ?? {};
      const p = this.payload(picked, s);
      await this.verify(p.endpointUri, p.secret);
      Object.assign(s, {
        endpointUri: p.endpointUri,
        secret: p.secret,
        subscriberConfigs: p.configs,
        updateTime: timestamp(this.deps.clock.now().getTime()),
        state: 'ACTIVE',
      });
      return this.operation(s);
    });
    app.delete(`${base}/:id`, async (request, reply) => {
      if (!guard(request, reply)) return reply;
      this.subscribers.delete(find(request).name);
      return {};
    });
  }

  /**
   * Notify every ACTIVE subscriber whose AUTOMATIC configs name the data type,
   * for each user who granted the type's read scope: one JSON array per
   * subscriber (§5.3). Each event: a user, a data type and the local dates
   * that changed.
   */
  async notify(events: Array<{ userId: string; dataType: string; dates: string[]; operation?: string }>) {
    const cfg = this.deps.config();
    const out: Delivery[] = [];
    for (const s of this.subscribers.values()) {
      if (s.state !== 'ACTIVE') continue;
      const batch: unknown[] = [];
      for (const e of events) {
        const spec = DATA_TYPES.get(e.dataType);
        if (!spec) throw new GoogleApiError(400, `Unknown data type: ${e.dataType}`);
        const subscribed = s.subscriberConfigs.some(
          (c) => c.subscriptionCreatePolicy === 'AUTOMATIC' && c.dataTypes.includes(e.dataType),
        );
        const granted = [...this.deps.store.grantedScopes(e.userId)].join(' ');
        if (!subscribed || !grants(granted, spec.scope, cfg)) continue;
        const person = this.deps.people.get(e.userId);
        batch.push({
          data: {
            version: 'v4',
            clientProvidedSubscriptionName: s.id,
            healthUserId: person.healthUserId,
            operation: e.operation ?? cfg.notificationOperation,
            dataType: e.dataType,
            intervals: e.dates.map((date) => {
              const tz = zoneOfDate(person, date);
              const next = addDays(date, 1);
              return {
                physicalTimeInterval: {
                  startTime: timestamp(localMidnight(tz, date)),
                  endTime: timestamp(localMidnight(tz, next)),
                },
                civilDateTimeInterval: { startTime: `${date}T00:00:00` },
                civilIso8601TimeInterval: `${date}/${next}`,
              };
            }),
          },
        });
      }
      if (batch.length === 0) continue;
      const body = JSON.stringify(batch);
      const signature = createSign('sha256').update(body).sign(this.keys.privateKey).toString('base64');
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (cfg.notificationAuthorization && s.secret !== null) headers.authorization = s.secret;
      if (cfg.signatureHeader !== 'X-HEALTHAPI-SIGNATURE') headers['google-health-api-signature'] = signature;
      if (cfg.signatureHeader !== 'GOOGLE-HEALTH-API-SIGNATURE') headers['x-healthapi-signature'] = signature;
      let status: number | null = null;
      try {
        const res = await fetch(s.endpointUri, {
          method: 'POST',
          headers,
          body,
          signal: AbortSignal.timeout(10_000),
        });
        await res.arrayBuffer();
        status = res.status;
      } catch {
        status = null;
      }
      const d = { subscriber: s.name, endpointUri: s.endpointUri, status, body: batch, headers };
      this.deliveries.push(d);
      if (this.deliveries.length > 200) this.deliveries.shift();
      out.push(d);
    }
    return out;
  }
}

const localMidnight = (tz: string, date: string) => instantOfLocal(tz, `${date}T00:00`);

/** Google's refusal of a subscriber call without a cloud-platform token (§4.2, nodejs-client #3936). */
export const projectDenied = () => googleError(403, 'The caller does not have permission');
