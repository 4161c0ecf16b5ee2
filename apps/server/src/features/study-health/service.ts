/*
 * Study health's API rules (issue #23 §3, §4, §8): a trial's rules (the
 * defaults until an Admin saves them), its alerts and their acknowledgement,
 * the signed-in user's digest opt-in, and the page's table read from the
 * stored days. Everything is reached through the access module: a trial the
 * actor does not see, or an alert of one, is the same 404 as a missing one.
 * Computing wear and raising alerts is the sync's and the evaluation's work,
 * not this module's.
 */
import {
  DEFAULT_HEALTH_RULE_SETTINGS,
  HEALTH_RULE_LIMITS,
  type HealthAlert,
  type HealthAlertCount,
  type HealthAlertStatus,
  type HealthDay,
  type HealthDevice,
  type HealthLinkStatus,
  type HealthRuleSettings,
  type HealthRules,
  type HealthRulesAnswer,
  type HealthSubscription,
  healthRuleSettingsSchema,
  STUDY_HEALTH_MESSAGES,
  type StudyHealth,
  type StudyHealthParticipant,
  type StudyHealthQuery,
} from '@trialwear/contract';
import { addDays, daysFrom, isKnownZone, localDate } from '@trialwear/zone';
import { AppError } from '../../access/errors.js';
import {
  type Actor,
  requireHealthAlert,
  requireTrial,
  type TrialScope,
  visibleTrials,
} from '../../access/index.js';
import type { AppContext } from '../../app-context.js';
import { recordActorAudit } from '../../audit/audit-log.js';
import type { Db } from '../../db/database.js';
import { inTransaction } from '../../db/transaction.js';
import * as repo from './repo.js';

type Ctx = Pick<AppContext, 'db' | 'now'>;

const iso = (t: Date | string | null | undefined) => (t == null ? null : new Date(t).toISOString());

// ---------------------------------------------------------------- rules

/**
 * The rules stored for the trial, section by section over the defaults (a
 * rule added later reads as its default until saved); a stored zone the
 * runtime no longer knows reads as the default zone.
 */
async function rulesOf(db: Db, scope: TrialScope): Promise<HealthRulesAnswer> {
  const stored = await repo.findRules(db, scope);
  if (!stored) return { ...(await defaultRules(db, scope)), isDefault: true, updatedAt: null };
  const merged = { ...DEFAULT_HEALTH_RULE_SETTINGS, ...(stored.rules as Partial<HealthRuleSettings>) };
  const parsed = healthRuleSettingsSchema.safeParse(merged);
  const settings = parsed.success ? parsed.data : DEFAULT_HEALTH_RULE_SETTINGS;
  const timezone = isKnownZone(stored.timezone) ? stored.timezone : await defaultZone(db, scope);
  return { timezone, ...settings, isDefault: false, updatedAt: iso(stored.updated_at) };
}

/** The default zone: the team's first participant's provider zone that the runtime knows, else UTC. */
async function defaultZone(db: Db, scope: TrialScope): Promise<string> {
  const zone = await repo.firstParticipantZone(db, scope);
  return zone && isKnownZone(zone) ? zone : 'UTC';
}

async function defaultRules(db: Db, scope: TrialScope): Promise<HealthRules> {
  return { timezone: await defaultZone(db, scope), ...DEFAULT_HEALTH_RULE_SETTINGS };
}

const rulesOnly = ({ isDefault: _d, updatedAt: _u, ...rules }: HealthRulesAnswer): HealthRules => rules;

/** A trial's rules in force (the defaults until saved), for the jobs. */
export const trialRules = async (db: Db, scope: TrialScope): Promise<HealthRules> =>
  rulesOnly(await rulesOf(db, scope));

export async function getRules(ctx: Ctx, actor: Actor, trialId: number): Promise<HealthRulesAnswer> {
  const scope = await requireTrial(ctx, actor, trialId);
  return rulesOf(ctx.db, scope);
}

/** Saves the whole rule set (Admin, Sys_Admin; the route checks the role) with its audit row. */
export async function saveRules(
  ctx: Ctx,
  actor: Actor,
  trialId: number,
  rules: HealthRules,
): Promise<HealthRulesAnswer> {
  return inTransaction(ctx, async (tx) => {
    const scope = await requireTrial(tx, actor, trialId);
    await repo.lockRules(tx.db, scope);
    const before = rulesOnly(await rulesOf(tx.db, scope));
    const { timezone, ...settings } = rules;
    await repo.saveRules(tx.db, scope, { timezone, rules: settings, userId: actor.userId, now: ctx.now() });
    const after = await rulesOf(tx.db, scope);
    await recordActorAudit(tx.db, actor, {
      action: 'study_health.rules.updated',
      entityType: 'trial',
      entityId: trialId,
      before,
      after: rulesOnly(after),
    });
    return after;
  });
}

// ---------------------------------------------------------------- alerts

export function toAlert(row: repo.AlertRow): HealthAlert {
  return {
    id: row.id,
    participantId: row.participant_id,
    participantCode: row.participant_code,
    ruleKey: row.rule_key,
    openedAt: new Date(row.opened_at).toISOString(),
    closedAt: iso(row.closed_at),
    acknowledgedAt: iso(row.acknowledged_at),
    acknowledgedBy: row.acknowledged_by,
    acknowledgedByName: row.acknowledged_by_name,
    note: row.note,
    detail: row.detail && typeof row.detail === 'object' ? (row.detail as Record<string, unknown>) : {},
  };
}

export async function listAlerts(
  ctx: Ctx,
  actor: Actor,
  trialId: number,
  status?: HealthAlertStatus,
): Promise<HealthAlert[]> {
  const scope = await requireTrial(ctx, actor, trialId);
  return (await repo.listAlerts(ctx.db, scope, status)).map(toAlert);
}

/** The navigation's badge: open alerts of every trial the actor sees (a User or Viewer: the trials they are on). */
export async function countOpenAlerts(ctx: Ctx, actor: Actor): Promise<HealthAlertCount> {
  return { open: await repo.countOpenAlerts(ctx.db, visibleTrials(actor)) };
}

/** Acknowledges an alert with a note, once (a second time is 409), with its audit row. */
export async function acknowledgeAlert(
  ctx: Ctx,
  actor: Actor,
  alertId: number,
  note: string,
): Promise<HealthAlert> {
  return inTransaction(ctx, async (tx) => {
    const scope = await requireHealthAlert(tx, actor, alertId);
    const done = await repo.acknowledgeAlert(tx.db, scope, { userId: actor.userId, note, now: ctx.now() });
    if (!done)
      throw new AppError(409, STUDY_HEALTH_MESSAGES.alreadyAcknowledged, 'Conflict', { displayToUser: true });
    const row = await repo.findAlert(tx.db, scope);
    if (!row) throw new Error('acknowledged alert vanished inside its transaction');
    const alert = toAlert(row);
    await recordActorAudit(tx.db, actor, {
      action: 'study_health.alert.acknowledged',
      entityType: 'health_alert',
      entityId: alertId,
      before: { trialId: scope.trialId, ruleKey: alert.ruleKey, acknowledgedAt: null },
      after: {
        trialId: scope.trialId,
        ruleKey: alert.ruleKey,
        acknowledgedAt: alert.acknowledgedAt,
        acknowledgedBy: alert.acknowledgedBy,
        note: alert.note,
      },
    });
    return alert;
  });
}

// ---------------------------------------------------------------- digest opt-in

/** The signed-in user's digest opt-in on a trial they see (Admin, User; the route checks the role). */
export async function setSubscription(
  ctx: Ctx,
  actor: Actor,
  trialId: number,
  digest: boolean,
): Promise<HealthSubscription> {
  return inTransaction(ctx, async (tx) => {
    const scope = await requireTrial(tx, actor, trialId);
    const before = (await repo.findSubscription(tx.db, scope, actor.userId)) ?? false;
    await repo.saveSubscription(tx.db, scope, { userId: actor.userId, digest, now: ctx.now() });
    await recordActorAudit(tx.db, actor, {
      action: 'study_health.subscription.updated',
      entityType: 'trial',
      entityId: trialId,
      before: { userId: actor.userId, digest: before },
      after: { userId: actor.userId, digest },
    });
    return { trialId, digest };
  });
}

// ---------------------------------------------------------------- the page's table

const LINK_STATUS: Record<repo.DeviceJson['status'], HealthLinkStatus> = {
  authorized: 'active',
  pending: 'pending',
  error: 'errored',
  revoked: 'revoked',
};
/** Worst first: the participant's link status is its worst device's. */
const LINK_SEVERITY: readonly HealthLinkStatus[] = ['revoked', 'errored', 'pending', 'active', 'none'];

function rangeError(message: string): AppError {
  return new AppError(400, message, 'ValidationError', {
    displayToUser: true,
    errors: [{ path: 'from', message }],
  });
}

/** The range of local dates: default the trial zone's last 14 days ending today; at most 90. */
export function healthRange(
  timezone: string,
  now: Date,
  query: StudyHealthQuery,
): { from: string; to: string } {
  const to = query.to ?? (query.from ? addDays(query.from, HEALTH_RULE_LIMITS.defaultDays - 1) : null);
  const end = to ?? localDate(timezone, now);
  const from = query.from ?? addDays(end, -(HEALTH_RULE_LIMITS.defaultDays - 1));
  if (from > end) throw rangeError(STUDY_HEALTH_MESSAGES.rangeOrder);
  if (daysFrom(from, end) >= HEALTH_RULE_LIMITS.maxRangeDays)
    throw rangeError(STUDY_HEALTH_MESSAGES.rangeTooLong);
  return { from, to: end };
}

/**
 * A participant's devices' days of one date (days[from..to), to exclusive)
 * as one day: the measures each device gives, metrics united.
 */
function mergeDay(days: HealthDay[], from: number, to: number): HealthDay {
  let wearMinutes: number | null = null;
  let cgmActivePercent: number | null = null;
  let bpReadings: number | null = null;
  const united: string[] = [];
  for (let i = from; i < to; i++) {
    const d = days[i]!;
    if (d.wearMinutes !== null) wearMinutes = Math.max(wearMinutes ?? d.wearMinutes, d.wearMinutes);
    if (d.cgmActivePercent !== null)
      cgmActivePercent = Math.max(cgmActivePercent ?? d.cgmActivePercent, d.cgmActivePercent);
    if (d.bpReadings !== null) bpReadings = (bpReadings ?? 0) + d.bpReadings;
    united.push(...d.metricsPresent);
  }
  const date = days[from]!.date;
  return { date, wearMinutes, cgmActivePercent, bpReadings, metricsPresent: [...new Set(united)].sort() };
}

/** A participant's days, ordered by date and device, as one day per date (a date of one device's day stays as it is). */
function mergeDays(days: HealthDay[]): HealthDay[] {
  const out: HealthDay[] = [];
  let i = 0;
  while (i < days.length) {
    let j = i + 1;
    while (j < days.length && days[j]!.date === days[i]!.date) j += 1;
    out.push(j - i === 1 ? days[i]! : mergeDay(days, i, j));
    i = j;
  }
  return out;
}

/** Ranges at least this long are read in two halves at once. */
const SPLIT_FROM_DAYS = 28;

/** Two JSON array texts as one (`[a…]` then `[b…]`). */
const joinArrays = (a: string, b: string) =>
  a === '[]' ? b : b === '[]' ? a : `${a.slice(0, -1)},${b.slice(1)}`;

/**
 * Each participant's stored days from `from` to `to` (repo.healthDays). A
 * long range is read as two halves of its dates at once, each on its own
 * connection: writing the days' JSON is most of the query's time and
 * PostgreSQL does it in one process per query (string_agg has no parallel
 * plan), so the halves put both cores to work. The earlier half comes first.
 */
async function storedDays(db: Db, scope: TrialScope, from: string, to: string) {
  const span = daysFrom(from, to) + 1;
  const mid = addDays(from, Math.floor(span / 2));
  const halves =
    span < SPLIT_FROM_DAYS
      ? [await repo.healthDays(db, scope, from, to)]
      : await Promise.all([
          repo.healthDays(db, scope, from, addDays(mid, -1)),
          repo.healthDays(db, scope, mid, to),
        ]);
  const out = new Map<number, repo.StoredDays>();
  for (const half of halves)
    for (const r of half) {
      const before = out.get(r.participant_id);
      // The halves share no date: a date repeats only within one.
      out.set(
        r.participant_id,
        before ? { ...r, days: joinArrays(before.days, r.days), repeated: before.repeated || r.repeated } : r,
      );
    }
  return out;
}

/** A participant's days as objects: one per date (the evaluation's and the report's). */
const daysOf = (s: repo.StoredDays | undefined): HealthDay[] => {
  if (!s) return [];
  const days = JSON.parse(s.days) as HealthDay[];
  return s.repeated ? mergeDays(days) : days;
};

/** A participant's days as the answer's JSON text: PostgreSQL's as it is unless a date needs merging. */
const daysText = (s: repo.StoredDays | undefined): string =>
  !s ? '[]' : s.repeated ? JSON.stringify(daysOf(s)) : s.days;

function toParticipant(
  row: Awaited<ReturnType<typeof repo.healthParticipants>>[number],
  days: HealthDay[],
): StudyHealthParticipant {
  const devices: HealthDevice[] = row.devices.map((d) => ({
    participantDeviceId: d.id,
    provider: d.provider,
    linkStatus: LINK_STATUS[d.status],
    lastSyncAt: iso(d.last_sync_at),
    batteryLevel: d.battery_level,
  }));
  const syncs = devices.map((d) => d.lastSyncAt).filter((x): x is string => x !== null);
  const batteries = devices.map((d) => d.batteryLevel).filter((x): x is number => x !== null);
  const linkStatus =
    LINK_SEVERITY.find((s) => devices.some((d) => d.linkStatus === s)) ?? ('none' as HealthLinkStatus);
  return {
    participantId: row.id,
    participantCode: row.participant_code,
    lastSyncAt: syncs.length ? syncs.reduce((a, b) => (a < b ? a : b)) : null,
    batteryLevel: batteries.length ? Math.min(...batteries) : null,
    linkStatus,
    devices,
    days,
    openAlerts: [...new Set(row.open_alerts)],
  };
}

/**
 * A trial's table in scope (the page's, and what the alerts' evaluation and
 * the report read, so all see the same numbers): its rules, the range, the
 * participants with their devices' state and open alerts, and their stored
 * days as read (merged when written out).
 */
async function tableParts(ctx: Ctx, scope: TrialScope, query: StudyHealthQuery) {
  const rules = rulesOnly(await rulesOf(ctx.db, scope));
  const { from, to } = healthRange(rules.timezone, ctx.now(), query);
  const [participants, days] = await Promise.all([
    repo.healthParticipants(ctx.db, scope),
    storedDays(ctx.db, scope, from, to),
  ]);
  return { rules, from, to, participants, days };
}

/** The trial's table with each participant's days as objects (the alerts' evaluation, the report). */
export async function trialHealthTable(ctx: Ctx, scope: TrialScope, query: StudyHealthQuery) {
  const { participants, days, ...rest } = await tableParts(ctx, scope, query);
  return { ...rest, participants: participants.map((p) => toParticipant(p, daysOf(days.get(p.id)))) };
}

/** JSON text whose shape is T (written by hand from parts already in JSON). */
export type JsonText<T> = string & { readonly __json?: T };

/**
 * GET /api/studyHealth/trials/{trialId}: the page's table, from the stored
 * days and device state, as JSON text. Each participant's days go in as
 * PostgreSQL wrote them (up to 90,000 day objects for a 1,000-participant
 * trial), so they are neither parsed nor written again here.
 */
export async function studyHealth(
  ctx: Ctx,
  actor: Actor,
  trialId: number,
  query: StudyHealthQuery,
): Promise<JsonText<StudyHealth>> {
  const scope = await requireTrial(ctx, actor, trialId);
  const [table, subscribed] = await Promise.all([
    tableParts(ctx, scope, query),
    repo.findSubscription(ctx.db, scope, actor.userId),
  ]);
  const head = {
    trialId,
    timezone: table.rules.timezone,
    from: table.from,
    to: table.to,
    rules: table.rules,
    digestSubscribed: subscribed ?? false,
  } satisfies Omit<StudyHealth, 'participants'>;
  const participants = table.participants.map((p) => {
    const { days: _none, ...rest } = toParticipant(p, []);
    // `rest` always has fields: its text ends in "}", the days go in before it.
    return `${JSON.stringify(rest).slice(0, -1)},"days":${daysText(table.days.get(p.id))}}`;
  });
  return `${JSON.stringify(head).slice(0, -1)},"participants":[${participants.join(',')}]}`;
}
