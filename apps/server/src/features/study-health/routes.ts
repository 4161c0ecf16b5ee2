import {
  acknowledgeAlertBodySchema,
  healthAlertCountSchema,
  healthAlertListQuerySchema,
  healthAlertParamsSchema,
  healthAlertSchema,
  healthRulesAnswerSchema,
  healthRulesSchema,
  healthSubscriptionBodySchema,
  healthSubscriptionSchema,
  healthTrialParamsSchema,
  studyHealthQuerySchema,
  studyHealthReportQuerySchema,
  studyHealthSchema,
} from '@trialwear/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { actorOf } from '../../http/actor.js';
import { complianceReport, reportCsv, reportFileName, reportXlsx } from './report.js';
import {
  acknowledgeAlert,
  countOpenAlerts,
  getRules,
  listAlerts,
  saveRules,
  setSubscription,
  studyHealth,
} from './service.js';

const tags = ['study health'];
const base = '/api/studyHealth';

export function registerStudyHealthRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    `${base}/trials/:trialId`,
    {
      schema: {
        tags,
        summary:
          "The trial's participants with their devices' state, their stored days (default the trial zone's last 14, at most 90) and open alerts",
        params: healthTrialParamsSchema,
        querystring: studyHealthQuerySchema,
        response: { 200: studyHealthSchema },
      },
    },
    // The response schema documents the shape; the answer (14,000 to 90,000 day objects for a
    // 1,000-participant trial) is JSON text the service writes from PostgreSQL's JSON of the days
    // (a string with a JSON content type goes out as it is), not objects validated one by one:
    // its shape is checked against the schema in table-shape.int.test.ts; bench/study-health.ts.
    async (request, reply) =>
      reply
        .type('application/json; charset=utf-8')
        .send((await studyHealth(ctx, actorOf(request), request.params.trialId, request.query)) as never),
  );

  r.get(
    `${base}/trials/:trialId/report`,
    {
      schema: {
        tags,
        summary:
          "The compliance report (Sys_Admin, Admin, User): the table's days of the range (the table's from/to rules) and the open alerts, as CSV or XLSX",
        params: healthTrialParamsSchema,
        querystring: studyHealthReportQuerySchema,
      },
    },
    async (request, reply) => {
      const { format } = request.query;
      const report = await complianceReport(ctx, actorOf(request), request.params.trialId, request.query);
      const file = format === 'csv' ? reportCsv(report) : await reportXlsx(report);
      return reply
        .header(
          'content-type',
          format === 'csv'
            ? 'text/csv; charset=utf-8'
            : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        )
        .header('content-disposition', `attachment; filename="${reportFileName(report, format)}"`)
        .header('cache-control', 'no-store')
        .send(file);
    },
  );

  r.get(
    `${base}/trials/:trialId/rules`,
    {
      schema: {
        tags,
        summary: "The trial's study-health rules (the defaults until saved)",
        params: healthTrialParamsSchema,
        response: { 200: healthRulesAnswerSchema },
      },
    },
    async (request) => getRules(ctx, actorOf(request), request.params.trialId),
  );

  r.put(
    `${base}/trials/:trialId/rules`,
    {
      schema: {
        tags,
        summary: "Save the trial's study-health rules and time zone (Sys_Admin, Admin)",
        params: healthTrialParamsSchema,
        body: healthRulesSchema,
        response: { 200: healthRulesAnswerSchema },
      },
    },
    async (request) => saveRules(ctx, actorOf(request), request.params.trialId, request.body),
  );

  r.get(
    `${base}/trials/:trialId/alerts`,
    {
      schema: {
        tags,
        summary: "The trial's alerts (open first, newest first), or those of one state",
        params: healthTrialParamsSchema,
        querystring: healthAlertListQuerySchema,
        response: { 200: z.array(healthAlertSchema) },
      },
    },
    async (request) => listAlerts(ctx, actorOf(request), request.params.trialId, request.query.status),
  );

  r.get(
    `${base}/alertCount`,
    {
      schema: {
        tags,
        summary:
          'The number of open (not acknowledged, not closed) alerts of the trials the signed-in user sees',
        response: { 200: healthAlertCountSchema },
      },
    },
    async (request) => countOpenAlerts(ctx, actorOf(request)),
  );

  r.post(
    `${base}/alerts/:alertId/acknowledge`,
    {
      schema: {
        tags,
        summary: 'Acknowledge an alert with a note (Sys_Admin, Admin, User), once',
        params: healthAlertParamsSchema,
        body: acknowledgeAlertBodySchema,
        response: { 200: healthAlertSchema },
      },
    },
    async (request) => acknowledgeAlert(ctx, actorOf(request), request.params.alertId, request.body.note),
  );

  r.put(
    `${base}/trials/:trialId/subscription`,
    {
      schema: {
        tags,
        summary: "The signed-in user's daily digest opt-in for the trial (Sys_Admin, Admin, User)",
        params: healthTrialParamsSchema,
        body: healthSubscriptionBodySchema,
        response: { 200: healthSubscriptionSchema },
      },
    },
    async (request) => setSubscription(ctx, actorOf(request), request.params.trialId, request.body.digest),
  );
}
