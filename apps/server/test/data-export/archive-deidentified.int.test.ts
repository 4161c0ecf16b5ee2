/*
 * De-identified archives (issue #25 item 5, decision 049), at the writer:
 * the archive world (London across the spring clock change, Kiritimati at
 * +14:00, Los Angeles at -07:00, an intraday metric stored as day rows,
 * sleep stages and Dexcom detail in value_json, a fraction of a second, a
 * reading without a device) written as CSV without and with shifts: every
 * row of a participant has its local date and its instant moved by that
 * participant's days and the dates inside its value_json too; times of
 * day, offsets, values and everything else unchanged; the manifest says
 * the dates are shifted, without the real range or the shift. Parquet and
 * FHIR read the same shifted rows.
 */
import { parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shiftDatesInText } from '../../src/features/data-export/archive/date-shift.js';
import { writeExportArchive } from '../../src/features/data-export/archive/write-archive.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { type ArchiveWorld, archiveWorld, collect, NOW, signal } from './support/archive-world.js';
import { lines, unzip } from './support/zip.js';

const DAY_MS = 86_400_000;

/** A CSV line's fields (the archive's quoting: a quoted field holds no newline here). */
function fields(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let j = i + 1;
      let v = '';
      while (j < line.length) {
        if (line[j] === '"' && line[j + 1] === '"') {
          v += '"';
          j += 2;
        } else if (line[j] === '"') break;
        else v += line[j++];
      }
      out.push(v);
      i = j + 2;
    } else {
      const j = line.indexOf(',', i);
      out.push(line.slice(i, j < 0 ? line.length : j));
      i = j < 0 ? line.length + 1 : j + 1;
    }
  }
  return out;
}

describe('de-identified export archives', () => {
  let t: TestApp;
  let w: ArchiveWorld;
  beforeAll(async () => {
    t = await createTestApp();
    w = await archiveWorld(t);
  });
  afterAll(() => t?.close());

  const archive = async (format: 'csv' | 'parquet' | 'fhir', shiftDays?: Map<number, number>) =>
    new Map(
      (
        await unzip(
          await collect((out) =>
            writeExportArchive(t.ctx.db, { ...w.request('single-tab'), format, shiftDays }, out, {
              signal: signal(),
              now: () => NOW,
            }),
          ),
        )
      ).map((e) => [e.name, e.data]),
    );

  it('moves every date and instant of a participant by its days, and nothing else', async () => {
    const shifts = new Map([
      [w.ids.a, 17],
      [w.ids.b, 364],
      [w.ids.c, 1],
    ]);
    const plain = lines((await archive('csv')).get('data.csv')!);
    const shifted = lines((await archive('csv', shifts)).get('data.csv')!);
    expect(shifted.length).toBe(plain.length);
    expect(shifted[0]).toBe(plain[0]);
    const codes = new Map([
      ['EXA002', 17],
      ['EXA001', 364],
      [`#${w.ids.c}`, 1],
    ]);
    let withJson = 0;
    for (let i = 1; i < plain.length; i++) {
      const p = fields(plain[i]!);
      const s = fields(shifted[i]!);
      const days = codes.get(p[0]!)!;
      expect(days, plain[i]).toBeDefined();
      // participant_code, metric_key, local_date, local_time, utc_offset, measured_at_utc, value, unit, value_json, device, source
      expect(Date.parse(`${s[2]}T00:00:00Z`) - Date.parse(`${p[2]}T00:00:00Z`), plain[i]).toBe(days * DAY_MS);
      expect(Date.parse(s[5]!) - Date.parse(p[5]!), plain[i]).toBe(days * DAY_MS);
      expect(s[5]!.slice(10), 'the time of day and its precision').toBe(p[5]!.slice(10));
      expect(s[8], plain[i]).toBe(shiftDatesInText(p[8]!, days));
      if (p[8] && /\d{4}-\d{2}-\d{2}/.test(p[8])) {
        expect(s[8]).not.toBe(p[8]);
        withJson++;
      }
      expect([s[0], s[1], s[3], s[4], s[6], s[7], s[9], s[10]]).toEqual([
        p[0],
        p[1],
        p[3],
        p[4],
        p[6],
        p[7],
        p[9],
        p[10],
      ]);
    }
    expect(withJson).toBeGreaterThan(0);
  });

  it('the manifest says the dates are shifted, without the real range, the job’s dates or the shift', async () => {
    const shifts = new Map([
      [w.ids.a, 200],
      [w.ids.b, 201],
      [w.ids.c, 202],
    ]);
    const manifest = JSON.parse((await archive('csv', shifts)).get('manifest.json')!.toString('utf8'));
    expect(manifest.export.dates_shifted).toBe(true);
    expect(manifest.export).not.toHaveProperty('start_date');
    expect(manifest.export).not.toHaveProperty('end_date');
    expect(manifest.conventions.deidentified).toMatch(/same whole number of days, 0 to 364/);
    const text = JSON.stringify(manifest);
    const request = w.request('single-tab');
    for (const d of [request.startDate, request.endDate]) expect(text).not.toContain(d);
    expect(text).not.toMatch(/\b20[01]\b/);
    const plainManifest = JSON.parse((await archive('csv')).get('manifest.json')!.toString('utf8'));
    expect(plainManifest.export.start_date).toBe(request.startDate);
    expect(plainManifest.export).not.toHaveProperty('dates_shifted');
  });

  it('Parquet and FHIR carry the same shifted dates', async () => {
    const shifts = new Map([
      [w.ids.a, 30],
      [w.ids.b, 30],
      [w.ids.c, 30],
    ]);
    const plain = await archive('parquet');
    const shifted = await archive('parquet', shifts);
    const rows = async (m: Map<string, Buffer>, name: string) => {
      const f = m.get(name)!;
      return parquetReadObjects({
        file: f.buffer.slice(f.byteOffset, f.byteOffset + f.byteLength) as ArrayBuffer,
        columns: ['local_date', 'measured_at_utc', 'value'],
      });
    };
    const name = [...plain.keys()].find((k) => k.endsWith('.parquet'))!;
    const [p, s] = [await rows(plain, name), await rows(shifted, name)];
    expect(s.length).toBe(p.length);
    s.forEach((r, i) => {
      // (hyparquet reads a DATE as a Date)
      const day = (v: unknown) => (v instanceof Date ? v.getTime() / DAY_MS : Number(v));
      expect(day(r.local_date) - day(p[i]!.local_date)).toBe(30);
      const ms = (v: unknown) => (v instanceof Date ? v.getTime() : Number(v) / 1000); // a TIMESTAMP as a Date
      expect(ms(r.measured_at_utc) - ms(p[i]!.measured_at_utc)).toBe(30 * DAY_MS);
      expect(r.value).toBe(p[i]!.value);
    });
    const obs = (m: Map<string, Buffer>) =>
      lines(m.get('Observation.ndjson')!).map(
        (l) => JSON.parse(l) as { effectiveDateTime?: string; effectivePeriod?: { start: string } },
      );
    const [fp, fs] = [obs(await archive('fhir')), obs(await archive('fhir', shifts))];
    expect(fs.length).toBe(fp.length);
    fs.forEach((o, i) => {
      const at = (x: typeof o) => x.effectiveDateTime ?? x.effectivePeriod!.start;
      expect(at(o)).toBe(shiftDatesInText(at(fp[i]!), 30));
    });
  });
});
