/*
 * Builds the Fastify app from an AppContext. The runtime (server entry) and
 * the integration tests both call this, so tests exercise the real thing.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { cookieName } from '@trialwear/contract';
import Fastify, { type FastifyInstance, type FastifyRequest, LogController } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import helmet from 'helmet';
import pino from 'pino';
import type { AppContext } from '../app-context.js';
import { registerAuditTrailRoutes } from '../features/audit-trail/routes.js';
import { registerAuthRoutes } from '../features/auth/routes.js';
import { resolveAuth } from '../features/auth/session.js';
import { registerContactRoutes } from '../features/contact/routes.js';
import { registerDataExportRoutes } from '../features/data-export/routes.js';
import { registerDataRetentionRoutes } from '../features/data-retention/routes.js';
import { registerDbInfoRoutes } from '../features/db-info/routes.js';
import { registerDeviceDataRoutes } from '../features/device-data/routes.js';
import { registerDeviceLinkRoutes } from '../features/device-links/routes.js';
import { registerDeviceMetricRoutes } from '../features/device-metrics/routes.js';
import { registerGoogleHealthWebhookRoutes } from '../features/google-health-webhooks/routes.js';
import { registerHealthRoutes } from '../features/health/routes.js';
import { registerMetaRoutes } from '../features/meta/routes.js';
import { registerParticipantPortalRoutes } from '../features/participant-portal/routes.js';
import { resolveParticipantAuth } from '../features/participant-portal/session.js';
import { registerParticipantImportRoutes } from '../features/participants/import-routes.js';
import { registerParticipantRoutes } from '../features/participants/routes.js';
import { registerPasswordRoutes } from '../features/passwords/routes.js';
import { registerRedcapRoutes } from '../features/redcap/routes.js';
import { registerSfaRoutes } from '../features/sfa/routes.js';
import { registerSignupRoutes } from '../features/signup/routes.js';
import { registerStudyHealthRoutes } from '../features/study-health/routes.js';
import { registerTeamDeviceRoutes } from '../features/team-devices/routes.js';
import { registerTeamRoutes } from '../features/teams/routes.js';
import { registerTrialUserRoutes } from '../features/trial-users/routes.js';
import { registerTrialRoutes } from '../features/trials/routes.js';
import { registerUserRoutes } from '../features/users/routes.js';
import { wakeExports } from '../jobs/data-export/job.js';
import { syncDeviceSoon, syncMetricsSoon } from '../jobs/device-sync/sync-soon.js';
import { APP_VERSION } from '../version.js';
import { registerAccessDenialAudit } from './access-denials.js';
import { registerApiCompression } from './api-compression.js';
import { registerCsrf } from './csrf.js';
import { registerErrorHandling, sendNotFound } from './errors.js';
import { registerInputGuard } from './input-guard.js';
import { REDACT_PATHS, REDACTED, serializeRequest } from './log-redaction.js';
import { batchedStdout } from './log-stream.js';
import { mountSimulators } from './mount-simulators.js';
import { pgRateLimitStore } from './pg-rate-limit-store.js';
import { lazyChildLogger } from './request-logger.js';
import { registerRouteAccess } from './route-access.js';
import { defaultWebDist, registerStaticWeb } from './static-web.js';

/**
 * Probes read by load balancers and the web app's outage banner: no session lookup before them,
 * so they answer (503 when the database is down) whatever cookie the caller sends (issue 27).
 */
const SESSIONLESS_ROUTES = new Set(['/api/health', '/api/ready']);

export interface BuildAppOptions {
  /** Serve the built SPA (the server does; API tests don't need it). */
  serveWeb?: boolean;
  logger?: boolean;
  /** Where log lines go (default stdout); tests read them back. */
  logStream?: NodeJS.WritableStream;
}

export async function buildApp(ctx: AppContext, opts: BuildAppOptions = {}): Promise<FastifyInstance> {
  const stdout = opts.logger === false || opts.logStream ? null : batchedStdout();
  // Stdout in batches, at most FLUSH_MS late (log-stream.ts).
  const logStream = opts.logStream ?? stdout;
  // The line every request leaves holds only what the onResponse hook below puts in it (method,
  // URL without secrets, address, status, time): it needs no redaction pass (22 of the line's 30 µs,
  // measured; decision 050). pino's `redact` stays on every other line.
  const requestLog = logStream && pino({ level: ctx.config.LOG_LEVEL }, logStream);
  const app = Fastify({
    logger: logStream
      ? {
          level: ctx.config.LOG_LEVEL,
          serializers: { req: serializeRequest },
          redact: { paths: REDACT_PATHS, censor: REDACTED },
          stream: logStream,
        }
      : false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,100}$/.test(given) ? given : randomUUID();
    },
    // One log line per request (onResponse below) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyChildLogger,
    // The load balancer's address (TRUST_PROXY) when it runs on another machine: else every client
    // would have its address, and the per-IP limits would be one budget for everybody.
    trustProxy: ctx.config.TRUST_PROXY ?? (ctx.config.NODE_ENV === 'production' ? 'loopback' : true),
    bodyLimit: 1024 * 1024,
    // The spec's paths come with and without a trailing slash (/userTrials/, /auth/login/).
    routerOptions: { ignoreTrailingSlash: true },
  });
  // The last lines out when the server closes (the process's exit writes them too).
  if (stdout)
    app.addHook('onClose', (_app, done) => {
      stdout.stop();
      done();
    });
  // First, so that every route registered after it gets its guard from the contract's table.
  registerRouteAccess(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Per-request hooks are callback style, not async: nothing to wait for, and a promise per
  // hook per request is measurable under load (bench/load).
  app.addHook('onResponse', (request, reply, done) => {
    requestLog?.info(
      {
        reqId: request.id,
        req: serializeRequest(request),
        res: { statusCode: reply.statusCode },
        responseTime: reply.elapsedTime,
      },
      'request completed',
    );
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    // API answers carry health data and identities: never cache them (ASVS 8.2.1).
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control'))
      reply.header('cache-control', 'no-store');
    done(null, payload);
  });

  // Large /api answers (participant lists) compressed when the client accepts it.
  registerApiCompression(app);

  await app.register(fastifyCookie);
  // Helmet's headers, built once (@fastify/helmet rebuilt its middleware on every request: a
  // measurable share of a small answer's cost under load, bench/load).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // reCAPTCHA v3 loads from Google when a site key is configured.
        scriptSrc: ["'self'", 'https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'],
        frameSrc: ["'self'", 'https://www.google.com/recaptcha/'],
        // Mantine injects CSS variables in style tags.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        upgradeInsecureRequests: ctx.config.publicUrl.startsWith('https://') ? [] : null,
      },
    },
    strictTransportSecurity: ctx.config.publicUrl.startsWith('https://'),
  });
  // …and their values computed once: with these fixed directives helmet sets the same headers on
  // every answer, so they are read off one run of it instead of a dozen middlewares per request.
  const headers = fixedHeaders(securityHeaders);
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    reply.raw.removeHeader('X-Powered-By');
    done();
  });
  // Per-IP limits of the sensitive routes only (global: false), counted in PostgreSQL so that every
  // server enforces one budget (pg-rate-limit-store.ts).
  await app.register(fastifyRateLimit, { global: false, store: pgRateLimitStore(ctx.db) });
  registerErrorHandling(app);

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'TrialWear API',
        version: APP_VERSION,
        description: 'Every call of the TrialWear specs, under /api.',
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: cookieName('session', ctx.config.secureCookies) },
          csrf: { type: 'apiKey', in: 'header', name: 'x-csrf-token' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  app.decorateRequest('auth', null);
  app.decorateRequest('authExpired', false);
  app.decorateRequest('participantAuth', null);
  app.decorateRequest('participantAuthExpired', false);
  const resolveSessions = async (request: FastifyRequest) => {
    request.auth = await resolveAuth(ctx, request);
    // A separate cookie and table: never request.auth (see participant-portal/session.ts).
    request.participantAuth = await resolveParticipantAuth(ctx, request);
  };
  app.addHook('onRequest', (request, _reply, done) => {
    if (!request.url.startsWith('/api/') || SESSIONLESS_ROUTES.has(request.routeOptions.url ?? ''))
      return done();
    resolveSessions(request).then(() => done(), done);
  });
  registerCsrf(app, ctx);
  registerAccessDenialAudit(app, ctx);
  // Every string of every /api body, query and path: no control characters (400, before the schema).
  registerInputGuard(app);

  registerHealthRoutes(app, ctx);
  registerMetaRoutes(app, ctx);
  registerAuditTrailRoutes(app, ctx);
  registerAuthRoutes(app, ctx);
  registerContactRoutes(app, ctx);
  registerSfaRoutes(app, ctx);
  registerPasswordRoutes(app, ctx);
  registerSignupRoutes(app, ctx);
  registerUserRoutes(app, ctx);
  registerTeamRoutes(app, ctx);
  registerTrialRoutes(app, ctx);
  registerParticipantRoutes(app, ctx);
  await registerParticipantImportRoutes(app, ctx);
  registerParticipantPortalRoutes(app, ctx);
  registerTrialUserRoutes(app, ctx);
  registerTeamDeviceRoutes(app, ctx);
  registerDeviceDataRoutes(app, ctx);
  // A new link or a newly stored metric is synced at once, not at the next 15-minute slot.
  registerDeviceLinkRoutes(app, ctx, syncDeviceSoon);
  registerDeviceMetricRoutes(app, ctx, syncMetricsSoon);
  registerDataRetentionRoutes(app, ctx, syncMetricsSoon);
  registerDataExportRoutes(app, ctx, async (c, teamId) => {
    await wakeExports(c, teamId);
  });
  registerDbInfoRoutes(app, ctx);
  registerStudyHealthRoutes(app, ctx);
  registerRedcapRoutes(app, ctx);
  await registerGoogleHealthWebhookRoutes(app, ctx);
  await mountSimulators(app, ctx);

  const servesWeb = opts.serveWeb && (await registerStaticWeb(app, ctx.config.WEB_DIST ?? defaultWebDist()));
  if (!servesWeb) app.setNotFoundHandler(sendNotFound);
  return app;
}

/** The headers a helmet middleware sets, read off one run of it against a recording response. */
function fixedHeaders(middleware: ReturnType<typeof helmet>): Array<[string, string]> {
  const set: Array<[string, string]> = [];
  const res = {
    setHeader: (name: string, value: unknown) => set.push([name, String(value)]),
    removeHeader: () => {},
  };
  let done = false;
  middleware({} as IncomingMessage, res as unknown as ServerResponse, () => {
    done = true;
  });
  // helmet's middlewares are synchronous; a future asynchronous one must not be half read.
  if (!done) throw new Error('helmet did not finish synchronously');
  return set;
}
