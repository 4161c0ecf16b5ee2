/*
 * A data point as the v4 calls answer it (proto3 JSON): its time fields by
 * record kind, its payload under the type's lowerCamel key, its data source
 * (list) or name (reconcile); sleep sessions with their stages once
 * processed (§3.10).
 */
import { payloadKeyOf } from '../data-types/catalogue.js';
import { dataSource } from '../data-types/data-sources.js';
import { sleepSession } from '../data-types/sleep-day.js';
import type { DataTypeSpec, Pt } from '../data-types/spec.js';
import type { GoogleHealthConfig } from '../gh-config.js';
import { gDate, interval, omitDefaults, sampleTime, timestamp, utcOffset } from '../gh-json.js';
import type { Person } from '../person.js';

/** What rendering depends on besides the point: the simulated now and the configuration. */
export interface RenderCtx {
  now: number;
  config: GoogleHealthConfig;
}

function payloadOf(spec: DataTypeSpec, person: Person, p: Pt, ctx: RenderCtx) {
  if (spec.id === 'sleep') {
    const s = sleepSession(person, p.date)!;
    // Stages are computed after waking (§3.10): until then processed:false, no stages yet.
    const processedAt = s.end + ctx.config.sleepProcessingMinutes * 60_000;
    const processing = ctx.now < processedAt;
    const stamp = timestamp(processing ? s.end + 60_000 : Math.max(processedAt, s.end + 15 * 60_000));
    const count = (type: string) => String(s.stages.filter((x) => x.type === type).length);
    return omitDefaults({
      interval: interval(s.tz, s.start, s.end),
      type: 'STAGES',
      stages: (processing ? [] : s.stages).map((x) => ({
        startTime: timestamp(x.start),
        startUtcOffset: utcOffset(s.tz, x.start),
        endTime: timestamp(x.end),
        endUtcOffset: utcOffset(s.tz, x.end),
        type: x.type,
        createTime: stamp,
        updateTime: stamp,
      })),
      metadata: {
        stagesStatus: processing ? '' : 'SUCCEEDED',
        processed: !processing,
        nap: false,
        manuallyEdited: false,
        mainSleep: true,
      },
      summary: {
        minutesInSleepPeriod: String(s.minutes.inBed),
        minutesAfterWakeUp: '0',
        minutesToFallAsleep: '0',
        minutesAsleep: String(s.minutes.asleep),
        minutesAwake: String(s.minutes.awake),
        stagesSummary: processing
          ? []
          : [
              { type: 'DEEP', minutes: String(s.minutes.deep), count: count('DEEP') },
              { type: 'LIGHT', minutes: String(s.minutes.light), count: count('LIGHT') },
              { type: 'REM', minutes: String(s.minutes.rem), count: count('REM') },
              { type: 'AWAKE', minutes: String(s.minutes.awake), count: count('AWAKE') },
            ],
      },
      createTime: stamp,
      updateTime: stamp,
    });
  }
  const time =
    spec.record === 'daily'
      ? { date: gDate(p.date) }
      : spec.record === 'sample'
        ? { sampleTime: sampleTime(p.tz, p.t) }
        : { interval: interval(p.tz, p.t, p.end!) };
  return omitDefaults({ ...time, ...p.fields });
}

const nameOf = (spec: DataTypeSpec, person: Person, p: Pt) =>
  `users/${person.healthUserId}/dataTypes/${spec.id}/dataPoints/${p.id}`;

export function renderListed(spec: DataTypeSpec, person: Person, p: Pt, ctx: RenderCtx) {
  return {
    ...(spec.identifiable && { name: nameOf(spec, person, p) }),
    dataSource: dataSource(person.dataUserId, p.source),
    [payloadKeyOf(spec.id)]: payloadOf(spec, person, p, ctx),
  };
}
export function renderReconciled(spec: DataTypeSpec, person: Person, p: Pt, ctx: RenderCtx) {
  return {
    ...(spec.identifiable && { dataPointName: nameOf(spec, person, p) }),
    [payloadKeyOf(spec.id)]: payloadOf(spec, person, p, ctx),
  };
}

/** Points a data source family keeps (reconcile, roll-ups): the tracker's and the scale's; the phone's overlap is merged away. */
export const merged = (p: Pt) => p.source !== 'phone';
