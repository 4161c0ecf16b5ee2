/*
 * The compliance report (issue #23 §7, docs/decisions/034-compliance-report.md):
 * the Study health table of a trial as a CSV or XLSX download — one row per
 * participant × local date of the range, one per alert not closed.
 *
 * The numbers are the page's: the days, devices' state and range come from
 * `trialHealthTable`, the function the page's GET answers from; only the
 * steps of each day are read here besides (the table has none). The alerts
 * are the alerts list's rows. Cells a spreadsheet would run as a formula are
 * neutralised in the CSV (csvCell); the XLSX writes every text as a string
 * cell, never a formula.
 */
import {
  csvCell,
  type HealthAlert,
  STUDY_HEALTH_DEFINITIONS,
  STUDY_HEALTH_REPORT_ALERT_COLUMNS,
  STUDY_HEALTH_REPORT_DAY_COLUMNS,
  type StudyHealthParticipant,
  type StudyHealthReportQuery,
  studyHealthReportFileName,
} from '@trialwear/contract';
import { datesBetween } from '@trialwear/zone';
import { type Actor, requireTrial, type TrialScope } from '../../access/index.js';
import type { AppContext } from '../../app-context.js';
import { recordActorAudit } from '../../audit/audit-log.js';
import type { Db } from '../../db/database.js';
import { inTransaction } from '../../db/transaction.js';
import * as repo from './repo.js';
import { toAlert, trialHealthTable } from './service.js';
import { xlsxInWorker } from './xlsx-in-worker.js';

type Ctx = Pick<AppContext, 'db' | 'now'>;
type Cell = string | number | null;

/** The stored steps reading of each participant-local date of the range, the highest of the participant's devices. */
function stepsByDay(db: Db, { teamId, trialId }: TrialScope, from: string, to: string) {
  return db
    .selectFrom('device_readings as r')
    .innerJoin('participants as p', 'p.id', 'r.participant_id')
    .select(['r.participant_id', 'r.local_date', (eb) => eb.fn.max('r.value').as('steps')])
    .where('p.trial_id', '=', trialId)
    .where('p.team_id', '=', teamId)
    .where('r.team_id', '=', teamId)
    .where('r.metric_key', '=', 'steps')
    .where('r.local_date', '>=', from)
    .where('r.local_date', '<=', to)
    .groupBy(['r.participant_id', 'r.local_date'])
    .execute();
}

/** As the batch export names a participant: the code, `#<id>` without one. */
const codeOf = (p: { participantId: number; participantCode: string | null }) =>
  p.participantCode ?? `#${p.participantId}`;

export interface ComplianceReport {
  trialId: number;
  from: string;
  to: string;
  timezone: string;
  /** In STUDY_HEALTH_REPORT_DAY_COLUMNS order. */
  days: Cell[][];
  /** In STUDY_HEALTH_REPORT_ALERT_COLUMNS order. */
  alerts: Cell[][];
}

function dayRows(
  participants: StudyHealthParticipant[],
  dates: string[],
  steps: Map<string, number>,
): Cell[][] {
  const rows: Cell[][] = [];
  for (const p of participants) {
    const byDate = new Map(p.days.map((d) => [d.date, d]));
    for (const date of dates) {
      const day = byDate.get(date);
      rows.push([
        codeOf(p),
        date,
        day?.wearMinutes ?? null,
        day?.cgmActivePercent ?? null,
        day?.bpReadings ?? null,
        steps.get(`${p.participantId}/${date}`) ?? null,
        day ? day.metricsPresent.join(';') : '',
        p.lastSyncAt,
        p.batteryLevel,
        p.linkStatus,
      ]);
    }
  }
  return rows;
}

function alertRow(a: HealthAlert): Cell[] {
  return [
    codeOf(a),
    a.ruleKey,
    a.openedAt,
    Object.keys(a.detail).length ? JSON.stringify(a.detail) : '',
    a.acknowledgedAt,
    a.acknowledgedBy === null ? null : (a.acknowledgedByName ?? `#${a.acknowledgedBy}`),
    a.note,
  ];
}

/**
 * The report's rows for a trial the actor sees (else 404), from the page's
 * table of the same range, and its audit row (a download of a trial's
 * health data, like the batch export's `data_export.downloaded`).
 */
export async function complianceReport(
  ctx: Ctx,
  actor: Actor,
  trialId: number,
  query: StudyHealthReportQuery,
): Promise<ComplianceReport> {
  const scope = await requireTrial(ctx, actor, trialId);
  const table = await trialHealthTable(ctx, scope, { from: query.from, to: query.to });
  const [steps, alerts] = await Promise.all([
    stepsByDay(ctx.db, scope, table.from, table.to),
    repo.listAlerts(ctx.db, scope, 'not_closed'),
  ]);
  const stepsOf = new Map(
    steps.map((s) => [`${s.participant_id}/${s.local_date}`, s.steps === null ? null : Number(s.steps)]),
  );
  const report: ComplianceReport = {
    trialId,
    from: table.from,
    to: table.to,
    timezone: table.rules.timezone,
    days: dayRows(table.participants, datesBetween(table.from, table.to), stepsOf as Map<string, number>),
    alerts: alerts.map((a) => alertRow(toAlert(a))),
  };
  await inTransaction(ctx, ({ db }) =>
    recordActorAudit(db, actor, {
      action: 'study_health.report.downloaded',
      entityType: 'trial',
      entityId: trialId,
      after: {
        format: query.format,
        from: report.from,
        to: report.to,
        participants: table.participants.length,
        dayRows: report.days.length,
        alertRows: report.alerts.length,
      },
    }),
  );
  return report;
}

// ---------------------------------------------------------------- the files

/**
 * One CSV, record_type first ('day' or 'alert'), then the day columns, then
 * the alert columns not already there: a statistician filters on the first
 * column. UTF-8 with a BOM (Excel reads the encoding from it), CRLF.
 */
export const CSV_COLUMNS = [
  'record_type',
  ...STUDY_HEALTH_REPORT_DAY_COLUMNS,
  ...STUDY_HEALTH_REPORT_ALERT_COLUMNS.filter(
    (c) => !(STUDY_HEALTH_REPORT_DAY_COLUMNS as readonly string[]).includes(c),
  ),
] as const;

function toRecord(type: 'day' | 'alert', columns: readonly string[], cells: Cell[]): Cell[] {
  const out: Cell[] = CSV_COLUMNS.map(() => null);
  out[0] = type;
  columns.forEach((c, i) => {
    out[CSV_COLUMNS.indexOf(c as (typeof CSV_COLUMNS)[number])] = cells[i] ?? null;
  });
  return out;
}

export function reportCsv(report: ComplianceReport): Buffer {
  const lines = [CSV_COLUMNS.map(csvCell).join(',')];
  for (const d of report.days)
    lines.push(toRecord('day', STUDY_HEALTH_REPORT_DAY_COLUMNS, d).map(csvCell).join(','));
  for (const a of report.alerts)
    lines.push(toRecord('alert', STUDY_HEALTH_REPORT_ALERT_COLUMNS, a).map(csvCell).join(','));
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8');
}

/**
 * Three sheets: Days, Open alerts, Definitions (the measures, as the data dictionary defines them).
 * Written in a worker thread (xlsx-in-worker.ts): seconds of CPU for a large trial.
 */
export function reportXlsx(report: ComplianceReport): Promise<Buffer> {
  const definitions: Cell[][] = [
    ...STUDY_HEALTH_DEFINITIONS.map((d) => [d.key, d.name, d.unit, d.description]),
    [
      'range',
      'Range',
      '',
      `${report.from} to ${report.to}, local dates of the trial's zone ${report.timezone}`,
    ],
  ];
  return xlsxInWorker([
    { sheet: 'Days', columns: STUDY_HEALTH_REPORT_DAY_COLUMNS, rows: report.days },
    { sheet: 'Open alerts', columns: STUDY_HEALTH_REPORT_ALERT_COLUMNS, rows: report.alerts },
    { sheet: 'Definitions', columns: ['column', 'name', 'unit', 'definition'], rows: definitions },
  ]);
}

export const reportFileName = (report: ComplianceReport, format: StudyHealthReportQuery['format']) =>
  studyHealthReportFileName(report.trialId, report, format);
