/*
 * Device data (core §7 tracker, scale and glucose calls; issue #10): every
 * read goes the same way. The participant must be in the actor's team (else
 * 404, as for an unknown id), the link to the provider authorized (else 409
 * notAuthorized), the query on the allow-list (else 400 before any provider
 * call), and the call goes through the provider's data reader inside
 * withFreshToken (one refresh and one retry on an expired token). Failures
 * become the spec's messages (provider-errors.ts). Values keep the
 * provider's units; every answer says the participant's zone when known.
 *
 * "Could not find any data!" (404) is answered when every list in the
 * provider's answer is empty: a Fitbit series always lists its days (with
 * "0"), so this is a sleep, weight, food or list read of days without any
 * record, an Omron or Dexcom window without readings, or an overview without
 * a single value. A list that has some entries is data, even when other
 * lists of the same answer are empty.
 */

import {
  DATA_MESSAGES,
  type DEXCOM_RESOURCES,
  type DexcomDataResult,
  joinSeries,
  LINKS_OF_PROVIDER,
  type LocalSummary,
  localSummarySchema,
  type OmronDataResult,
  type OmronQuery,
  type Provider,
  parseFitbitTrackerPath,
  type RawDataResult,
  type Series,
  type TrackerOverview,
  type TrackerSeriesResult,
} from '@trialwear/contract';
import { datesEnding, localDate } from '@trialwear/zone';
import { AppError } from '../../access/errors.js';
import { type Actor, type ParticipantScope, requireParticipant } from '../../access/index.js';
import type { AppContext } from '../../app-context.js';
import { recordActorAudit } from '../../audit/audit-log.js';
import { inTransaction } from '../../db/transaction.js';
import { dexcomWindows, mergeRecords, WINDOWED_RESOURCES } from '../../providers/dexcom/windows.js';
import { overviewPaths, overviewSeries } from '../../providers/fitbit/overview.js';
import * as omron from '../../providers/omron/readings.js';
import {
  type DataQuery,
  type ProviderAnswer,
  type RawQuery,
  RawQueryRefused,
  type SeriesSet,
} from '../../providers/types.js';
import { type InteractiveReadOptions, interactiveReader } from './interactive-read.js';
import { localSummary } from './local-summary.js';
import { participantZone } from './participant-zone.js';
import { noData, notAuthorized } from './provider-errors.js';
import * as repo from './repo.js';
import { storedIntradayRead, storedIntradaySeries } from './stored-intraday.js';

/** Omron pages read at most for one query (100 readings each): bounded, never a loop without end. */
const OMRON_MAX_PAGES = 20;

const badRequest = (message: string) =>
  new AppError(400, message, 'ValidationError', { displayToUser: true });

/** A participant of the actor's team with an authorized link to the provider, ready to read. */
interface Reader {
  participantId: number;
  participant: ParticipantScope;
  link: repo.DataLink;
  read(query: DataQuery, opts?: InteractiveReadOptions): Promise<ProviderAnswer>;
  readWindows(queries: DataQuery[]): Promise<ProviderAnswer[]>;
  /** The provider module's normalized series of one answer (decision 030). */
  toSeries(query: DataQuery, answer: ProviderAnswer, timeZone: string | null): SeriesSet;
}

async function readerFor(
  ctx: AppContext,
  actor: Actor,
  provider: Provider,
  participantId: number,
): Promise<Reader> {
  const participant = await requireParticipant(ctx, actor, participantId);
  const link = await repo.findLink(ctx.db, participant, LINKS_OF_PROVIDER[provider]);
  if (link?.authorization_status !== 'authorized') throw notAuthorized();
  // The API the link was authorized with (a legacy Fitbit link keeps the legacy API).
  const client = ctx.providers.links[link.provider];
  if (!client.data)
    throw new AppError(501, DATA_MESSAGES.noDataAvailable, 'InternalError', { displayToUser: true });
  // Coalesced, cached 60 s, counted against the device's interactive share (interactive-read.ts).
  const reader = interactiveReader(ctx, client, provider, link.id);
  const data = client.data;
  return {
    participantId,
    participant,
    link,
    read: reader.read,
    readWindows: reader.readWindows,
    toSeries: (query, answer, timeZone) => data.toSeries(query, answer, timeZone),
  };
}

/** Whether an answer has no day, no point and no record (see the header). */
export function nothingListed(set: SeriesSet): boolean {
  return (
    set.series.every((x) => !x.days?.length && !x.points?.length) && !(set.records && set.records.length > 0)
  );
}

const fitbitZone = (ctx: AppContext, r: Reader) =>
  participantZone(ctx.providers, r.link, ctx.now(), () => r.read({ resource: 'profile', params: {} }));

// ------------------------------------------------------------------ Fitbit

export async function fitbitData(
  ctx: AppContext,
  actor: Actor,
  participantId: number,
  resourcePath: string,
): Promise<TrackerSeriesResult> {
  // One provider call, or a long range read as the provider's windows one after the other (issue #21).
  const parsed = parseFitbitTrackerPath(resourcePath);
  if (!parsed) throw badRequest(DATA_MESSAGES.unknownResource);
  const { resource } = parsed;
  const r = await readerFor(ctx, actor, 'fitbit', participantId);
  const timeZone = await fitbitZone(ctx, r);
  if (resource.kind === 'overview') {
    const overview = await overviewOf(ctx, r, timeZone);
    if (Object.values(overview.series).every((s) => s.every((d) => d.value === null))) throw noData();
    return { participantId, resourcePath, timeZone, overview };
  }
  // A day the sync stored whole is drawn from the store: no provider call (issue #24 item 3).
  const storedRead = storedIntradayRead(resourcePath);
  const stored =
    storedRead && (await storedIntradaySeries(ctx.db, r.link, participantId, storedRead, timeZone));
  if (stored) return { participantId, resourcePath, timeZone, series: [stored] };
  const queries = parsed.windows.map((path): DataQuery => ({ resource: 'tracker', params: { path } }));
  const answers = await r.readWindows(queries);
  const sets = answers.map((a, i) => r.toSeries(queries[i]!, a, timeZone));
  const set: SeriesSet = { series: joinSeries(sets.map((x) => x.series)) };
  if (sets.some((x) => x.records)) set.records = dedupeLogs(sets.flatMap((x) => x.records ?? []));
  // An intraday read answers its day even without a sample (the provider lists the day itself).
  const intraday = resource.kind === 'activity-intraday' || resource.kind === 'heart-intraday';
  if (!intraday && nothingListed(set)) throw noData();
  return { participantId, resourcePath, timeZone, ...set };
}

/** Log entries of several windows, an entry with a `logId` seen before left out. */
function dedupeLogs(records: unknown[]): unknown[] {
  const seen = new Set<unknown>();
  return records.filter((x) => {
    const id = (x as { logId?: unknown } | null)?.logId;
    if (id === undefined) return true;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** 14 local days per subject ending on the participant's local today, and their 7-vs-7 summary. */
async function overviewOf(ctx: AppContext, r: Reader, timeZone: string): Promise<TrackerOverview> {
  const now = ctx.now();
  const dates = datesEnding(localDate(timeZone, now), 14);
  const paths = overviewPaths(dates[0]!, dates[13]!);
  const read = Object.fromEntries(
    await Promise.all(
      Object.entries(paths).map(async ([k, path]) => {
        const query: DataQuery = { resource: 'tracker', params: { path } };
        return [k, r.toSeries(query, await r.read(query), timeZone).series] as const;
      }),
    ),
  ) as Record<keyof typeof paths, Series[]>;
  const series = overviewSeries(read, dates);
  return { series, summary: localSummary(r.participantId, timeZone, dates[13]!, series, now) };
}

/** POST /fitbitDataLocalDB/{id}: computed here from provider data (the body's data is never used), stored, audited. */
export async function saveLocalSummary(ctx: AppContext, actor: Actor, participantId: number) {
  const r = await readerFor(ctx, actor, 'fitbit', participantId);
  const timeZone = await fitbitZone(ctx, r);
  const { summary } = await overviewOf(ctx, r, timeZone);
  await inTransaction(ctx, async (tx) => {
    await repo.saveSummary(tx.db, r.participant, summary, ctx.now());
    await recordActorAudit(tx.db, actor, {
      action: 'fitbit.summary.saved',
      entityType: 'participant',
      entityId: participantId,
      after: { computedAt: summary.computedAt, timeZone },
    });
  });
  return { summary };
}

export async function getLocalSummary(
  ctx: AppContext,
  actor: Actor,
  participantId: number,
): Promise<{ summary: LocalSummary | null }> {
  const participant = await requireParticipant(ctx, actor, participantId);
  const row = await repo.findSummary(ctx.db, participant);
  const parsed = row ? localSummarySchema.safeParse(row.data) : null;
  return { summary: parsed?.success ? parsed.data : null };
}

// ------------------------------------------------------------------ Omron

/** The link's provider module's mapping of its answers to normalized series (Omron, Dexcom). */

export async function omronData(
  ctx: AppContext,
  actor: Actor,
  participantId: number,
  q: OmronQuery,
): Promise<OmronDataResult> {
  const r = await readerFor(ctx, actor, 'omron', participantId);
  const type = omron.omronType(q.category);
  const pages: Series[][] = [];
  let since = omron.omronSince(q.since);
  // Omron pages by `truncated`: ask again from the last reading's instant (de-duplicated by id).
  for (let page = 0; page < OMRON_MAX_PAGES; page++) {
    const query: DataQuery = { resource: 'measurement', params: { since, type, sortOrder: 'asc' } };
    const answer = await r.read(query);
    pages.push(r.toSeries(query, answer, null).series);
    const { next } = omron.omronPaging(answer, q.category, since);
    if (next === null) break;
    since = next;
  }
  const kept = omron.selectReadings(omron.measurementsOf(pages, q.category), q);
  if (kept.length === 0) throw noData();
  return {
    participantId,
    category: q.category,
    timeZone: null,
    ...(q.category === 'bloodPressure'
      ? { bloodPressure: kept.map(omron.toBloodPressure) }
      : { weight: kept.map(omron.toWeight) }),
  };
}

// ------------------------------------------------------------------ Dexcom

export async function dexcomData(
  ctx: AppContext,
  actor: Actor,
  participantId: number,
  resource: (typeof DEXCOM_RESOURCES)[number],
  q: { startDate?: string; endDate?: string },
): Promise<DexcomDataResult> {
  const windows = WINDOWED_RESOURCES.has(resource) ? dexcomWindows(ctx.now(), q.startDate, q.endDate) : null;
  if (windows && !windows.ok) throw badRequest(windows.message);
  const r = await readerFor(ctx, actor, 'dexcom', participantId);
  if (!windows) {
    const body = (await r.read({ resource, params: {} })).body as { records?: unknown[] } | null;
    const records = Array.isArray(body?.records) ? body.records : [];
    if (resource === 'devices' && records.length === 0) throw noData();
    return { participantId, resource, timeZone: null, requests: 1, records, data: body };
  }
  const pages: unknown[][] = [];
  const series: Series[][] = [];
  // One window after the other: a 429 or failure stops the walk at that call.
  for (const [startDate, endDate] of windows.windows) {
    const query: DataQuery = { resource, params: { startDate, endDate } };
    const answer = await r.read(query);
    const body = answer.body as { records?: unknown[] };
    pages.push(Array.isArray(body?.records) ? body.records : []);
    series.push(r.toSeries(query, answer, null).series);
  }
  const records = mergeRecords(pages);
  if (records.length === 0) throw noData();
  return {
    participantId,
    resource,
    timeZone: null,
    requests: pages.length,
    records,
    series: joinSeries(series),
  };
}

// ------------------------------------------------------------------ raw (Sys_Admin)

/**
 * The provider's answer exactly as received for one allow-listed query: a
 * tracker resource path (Fitbit; not /overview, which is ours), a category
 * and `since` (Omron), a Dexcom resource and one window of at most 30 days.
 */
export async function rawData(
  ctx: AppContext,
  actor: Actor,
  participantId: number,
  provider: Provider,
  q: RawQuery,
): Promise<RawDataResult> {
  // Checked by the provider's own allow-list before the participant is even looked up.
  let query: DataQuery;
  try {
    query = ctx.providers[provider].data!.rawQuery(q, ctx.now());
  } catch (err) {
    if (err instanceof RawQueryRefused) throw badRequest(err.message);
    throw err;
  }
  const r = await readerFor(ctx, actor, provider, participantId);
  const timeZone = ctx.providers.links[r.link.provider].data?.localTime ? await fitbitZone(ctx, r) : null;
  const answer = await r.read(query, { fresh: true });
  return {
    provider,
    request: answer.request,
    status: answer.status,
    receivedAt: ctx.now().toISOString(),
    timeZone,
    headers: answer.headers,
    body: answer.body,
  };
}
