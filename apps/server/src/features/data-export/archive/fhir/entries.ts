/*
 * The FHIR export's NDJSON files (issue #25 item 1, decision 046), as the
 * FHIR Bulk Data format has them: one resource type per file, one resource
 * per line. Patient.ndjson and Device.ndjson are small (one line per
 * participant and per link); Observation.ndjson streams like the CSV: each
 * participant's binary COPY of every metric (binary-copy-columns.ts) →
 * an Observation per reading (a blood-pressure panel per systolic/diastolic
 * pair of one instant) → checked (validate.ts) → lines → SHA-256 → the ZIP.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Observation, Resource } from '@medplum/fhirtypes';
import { BinaryCopyColumns, type ColumnGroup } from '../binary-copy-columns.js';
import { type EntryResult, entryResult } from '../entry-result.js';
import type { ExportParticipant, ExportSnapshot } from '../readings-stream-repo.js';
import {
  bloodPressureOf,
  deviceResource,
  type ExportReading,
  observationOf,
  patientResource,
} from './resources.js';
import { FhirShapeCheck, validateFhir } from './validate.js';

export const FHIR_FILES = {
  patients: 'Patient.ndjson',
  devices: 'Device.ndjson',
  observations: 'Observation.ndjson',
} as const;

/** Rows read into one column group before they become resources. */
const GROUP_ROWS = 10_000;
/** Bytes of lines gathered before they are handed to the ZIP. */
const CHUNK_BYTES = 1 << 20;

/** A small NDJSON file, every resource validated in full. */
export function ndjsonBuffer(resources: Resource[]): { buffer: Buffer; rows: number; sha256: string } {
  for (const r of resources) validateFhir(r);
  const buffer = Buffer.from(resources.map((r) => `${JSON.stringify(r)}\n`).join(''));
  return { buffer, rows: resources.length, sha256: createHash('sha256').update(buffer).digest('hex') };
}

export const patientsFile = (snapshot: ExportSnapshot) =>
  ndjsonBuffer(snapshot.participants.map(patientResource));

/** The links of the exported participants (every one, whether or not it stored a reading in range). */
export const devicesFile = (snapshot: ExportSnapshot) =>
  ndjsonBuffer(
    snapshot.devices
      .filter((d) => snapshot.participants.some((p) => p.id === d.participantId))
      .map(deviceResource),
  );

const two = (n: number) => String(n).padStart(2, '0');
const dateTexts = new Map<number, string>();
/** Days since 1970-01-01 as YYYY-MM-DD. */
function dateText(days: number): string {
  let t = dateTexts.get(days);
  if (t === undefined) {
    t = new Date(days * 86_400_000).toISOString().slice(0, 10);
    if (dateTexts.size < 100_000) dateTexts.set(days, t);
  }
  return t;
}
/** µs since midnight as HH:MM:SS[.f…] (PostgreSQL's text of a time). */
function timeText(us: number): string {
  const s = Math.floor(us / 1_000_000);
  const fraction = us % 1_000_000;
  const base = `${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
  return fraction === 0 ? base : `${base}.${String(fraction).padStart(6, '0').replace(/0+$/, '')}`;
}

/**
 * The Observations of one participant's rows; blood pressure waits for its
 * other half (same device and instant) and is written as one panel.
 */
class ParticipantObservations {
  private readonly pending = new Map<string, { systolic?: ExportReading; diastolic?: ExportReading }>();

  constructor(
    private readonly participant: ExportParticipant,
    private readonly names: Map<string, string>,
  ) {}

  *of(g: ColumnGroup): Generator<Observation> {
    for (let i = 0; i < g.rows; i++) {
      const metric = g.metric_key[i]!;
      const time = g.local_time[i];
      const r: ExportReading = {
        participantId: this.participant.id,
        metric,
        metricName: this.names.get(metric) ?? metric,
        localDate: dateText(g.local_date[i]!),
        localTime: time === null || time === undefined ? null : timeText(time),
        offset: g.utc_offset[i] ?? null,
        instantUs: g.measured_at_utc[i]!,
        value: g.value[i] ?? null,
        valueJson: g.value_json[i] ?? null,
        deviceId: g.device_id[i] ?? null,
      };
      if (metric === 'systolic' || metric === 'diastolic') {
        const key = `${r.deviceId}:${r.instantUs}`;
        const pair = this.pending.get(key) ?? {};
        pair[metric] = r;
        if (pair.systolic && pair.diastolic) {
          this.pending.delete(key);
          yield bloodPressureOf(pair.systolic, pair.diastolic);
        } else this.pending.set(key, pair);
      } else yield observationOf(r);
    }
  }

  /** Halves without their other half, by instant. */
  *rest(): Generator<Observation> {
    const halves = [...this.pending.values()].sort((a, b) => {
      const x = BigInt((a.systolic ?? a.diastolic)!.instantUs);
      const y = BigInt((b.systolic ?? b.diastolic)!.instantUs);
      return x < y ? -1 : x > y ? 1 : 0;
    });
    this.pending.clear();
    for (const h of halves) yield bloodPressureOf(h.systolic ?? null, h.diastolic ?? null);
  }
}

/** Observation.ndjson: every participant's readings of the export's metrics, in export order. */
export function observationsEntry(
  snapshot: ExportSnapshot,
  onRows: (n: number) => void,
): { stream: Readable; result: Promise<EntryResult> } {
  const { result, resolve, reject } = entryResult();
  const names = new Map(snapshot.metrics.map((m) => [m.key, m.name]));
  async function* produce() {
    try {
      const hash = createHash('sha256');
      const check = new FhirShapeCheck();
      let resources = 0;
      let bytes = 0;
      let lines: string[] = [];
      let pendingBytes = 0;
      const add = (o: Observation) => {
        check.check(o);
        const line = `${JSON.stringify(o)}\n`;
        lines.push(line);
        pendingBytes += line.length;
        resources += 1;
      };
      const handOn = (): Buffer[] => {
        if (lines.length === 0) return [];
        const chunk = Buffer.from(lines.join(''));
        lines = [];
        pendingBytes = 0;
        hash.update(chunk);
        bytes += chunk.length;
        return [chunk];
      };
      for (const participant of snapshot.participants) {
        const copy = snapshot.copyRows(participant, snapshot.metrics);
        const columns = BinaryCopyColumns.next(null, GROUP_ROWS, copy.text);
        const observations = new ParticipantObservations(participant, names);
        let counted = 0;
        for await (const messages of copy.stream as AsyncIterable<Buffer>) {
          columns.write(messages);
          onRows(columns.rows - counted);
          counted = columns.rows;
          for (const g of columns.take()) {
            for (const o of observations.of(g)) add(o);
            if (pendingBytes >= CHUNK_BYTES) yield* handOn();
          }
        }
        columns.end();
        const copied = await copy.done;
        if (copied !== columns.rows)
          throw new Error(
            `export: ${columns.rows} FHIR rows for ${copied} rows (participant ${participant.code})`,
          );
        const last = columns.rest();
        if (last) for (const o of observations.of(last)) add(o);
        for (const o of observations.rest()) add(o);
        if (pendingBytes >= CHUNK_BYTES) yield* handOn();
      }
      yield* handOn();
      resolve({ rows: resources, sha256: hash.digest('hex'), bytes });
    } catch (err) {
      reject(err);
      throw err;
    }
  }
  return { stream: Readable.from(produce(), { objectMode: false, highWaterMark: 4 * 1024 * 1024 }), result };
}
