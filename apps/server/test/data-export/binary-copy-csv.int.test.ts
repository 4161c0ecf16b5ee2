/*
 * The export's CSV lines, written in Node from PostgreSQL's binary COPY
 * (archive/binary-copy-csv.ts), against PostgreSQL's own text output of the
 * same values: for random rows (dates across years 1–9999, times with and
 * without fractions and 24:00:00, instants before and after 2000, offsets on
 * and off the quarter hour, doubles of every magnitude incl. -0, NaN and
 * infinities, text with quotes, commas, line breaks and non-ASCII, NULLs),
 * the lines must equal byte for byte what `COPY … (FORMAT csv)` gives for
 * the formatting expressions the export used before it formatted in Node
 * (the display columns, decision 044: the conversion's double as PostgreSQL
 * prints it).
 * The binary bytes reach the parser framed as CopyData messages (split at
 * random places, a row across two messages included, though PostgreSQL
 * sends one row per message), the byte stream cut at random places, as a
 * socket cuts it.
 */
import { DISPLAY_UNITS } from '@trialwear/contract';
import fc from 'fast-check';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolOf } from '../../src/db/database.js';
import { BINARY_COLUMNS, BinaryCopyCsv } from '../../src/features/data-export/archive/binary-copy-csv.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** The text expressions of the export before it formatted in Node: PostgreSQL's output is the oracle. */
function textSelect(client: pg.PoolClient, code: string, units: Record<string, string | null>) {
  const lit = (v: string | null) => (v === null ? 'NULL' : client.escapeLiteral(v));
  return `SELECT ${lit(code)}, r.metric_key, r.local_date, r.local_time,
      CASE WHEN r.utc_offset_minutes < 0 THEN '-' ELSE '+' END
        || to_char(abs(r.utc_offset_minutes) / 60, 'FM00') || ':' || to_char(abs(r.utc_offset_minutes) % 60, 'FM00'),
      replace((r.measured_at AT TIME ZONE 'UTC')::text, ' ', 'T') || 'Z',
      r.value,
      CASE r.metric_key ${Object.entries(units)
        .map(([k, u]) => `WHEN ${lit(k)} THEN ${lit(u)}`)
        .join(' ')} END,
      r.value_json,
      CASE r.participant_device_id WHEN 1 THEN ${lit('Fitbit "Sense", 2')} WHEN 2 THEN ${lit('Dexcom G7 — CGM')} END,
      coalesce(r.provider, CASE r.participant_device_id WHEN 1 THEN 'fitbit' WHEN 2 THEN 'dexcom' END),
      r.display_value, r.display_unit
    FROM pg_temp.readings r ORDER BY r.n`;
}

/** The payload bytes as CopyData messages ('d', int32 length, bytes) of the given sizes in turn. */
function frame(payload: Buffer, sizes: number[]): Buffer {
  const messages: Buffer[] = [];
  for (let at = 0, i = 0; at < payload.length; i++) {
    const part = payload.subarray(at, at + sizes[i % sizes.length]!);
    const head = Buffer.alloc(5);
    head[0] = 0x64;
    head.writeUInt32BE(part.length + 4, 1);
    messages.push(head, part);
    at += part.length;
  }
  return Buffer.concat(messages);
}

const US_PER_DAY = 86_400_000_000;
const row = fc.record({
  metric_key: fc.constantFrom('steps', 'heart_rate_intraday', 'egv', 'weight'),
  // Days from 2000-01-01: years 1 … 9999.
  local_date: fc.integer({ min: -730_119, max: 2_921_939 }),
  local_time: fc.option(
    fc.oneof(
      fc.integer({ min: 0, max: 86_399 }).map((s) => s * 1_000_000),
      fc.integer({ min: 0, max: US_PER_DAY }),
    ),
  ),
  utc_offset_minutes: fc.option(
    fc.oneof(
      fc.integer({ min: -56, max: 56 }).map((q) => q * 15),
      fc.integer({ min: -900, max: 900 }),
    ),
  ),
  // µs from 2000-01-01 UTC, years 1 … 9999 (the day before and after left as margin).
  measured_at: fc.oneof(
    fc.integer({ min: -730_118, max: 2_921_938 }).map((d) => d * US_PER_DAY),
    fc.integer({ min: -730_118 * 864, max: 2_921_938 * 864 }).map((x) => x * 100_000_000 + 123_456),
    fc.integer({ min: 0, max: 2_000_000_000 }).map((x) => 820_000_000_000_000 + x * 1000),
  ),
  value: fc.option(
    fc.oneof(
      fc.double(),
      fc.integer({ min: -1_000_000, max: 1_000_000 }),
      fc.constantFrom(-0, 0, 1e15, 1e-5, 0.0001, 123456789012345.6, Number.MAX_VALUE, Number.MIN_VALUE),
    ),
  ),
  value_json: fc.option(
    fc.oneof(
      fc.constant(null),
      fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
      fc.constant('{"a": "quote \\" comma , line\\nbreak", "é": "ü"}'),
    ),
  ),
  participant_device_id: fc.option(fc.constantFrom(1, 2, 3)),
  provider: fc.option(fc.constantFrom('fitbit', 'dexcom', 'google_health', 'odd, "provider"', '')),
});

describe('binary COPY → CSV lines', () => {
  let t: TestApp;
  let client: pg.PoolClient;
  beforeAll(async () => {
    t = await createTestApp();
    client = await poolOf(t.ctx.db).connect();
    await client.query('SET extra_float_digits = 1');
    await client.query("SET datestyle = 'ISO, YMD'");
    await client.query(`CREATE TEMP TABLE readings (n int, metric_key text, local_date date, local_time time,
      utc_offset_minutes smallint, measured_at timestamptz, value double precision, value_json jsonb,
      participant_device_id integer, provider text, display_value double precision, display_unit text)`);
  });
  afterAll(async () => {
    client?.release();
    await t.close();
  });

  async function copy(sql: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const c of client.query(copyTo(sql)) as AsyncIterable<Buffer>) chunks.push(c);
    return Buffer.concat(chunks);
  }

  it('equal to PostgreSQL’s text output, value for value, however the bytes are cut', async () => {
    const units = { steps: 'steps', heart_rate_intraday: 'bpm', egv: 'mg/dL', weight: 'kg, "metric"' };
    const constants = {
      code: 'EXA001',
      unitOf: new Map(
        Object.entries(units).map(([k, u]) => [k, u.includes('"') ? `"${u.replaceAll('"', '""')}"` : u]),
      ),
      deviceOf: new Map([
        [1, { name: '"Fitbit ""Sense"", 2"', provider: 'fitbit' }],
        [2, { name: 'Dexcom G7 — CGM', provider: 'dexcom' }],
      ]),
      // Weight as the pages show it (decision 044), with a unit that needs quoting.
      displayOf: new Map([['weight', { unit: '"Lbs, ""US"""', convert: DISPLAY_UNITS.weight!.convert }]]),
    };
    // The display columns' oracle: the conversion's double (PostgreSQL's text of it) and the unit.
    const shown = (r: { metric_key: string; value: number | null }) =>
      r.metric_key === 'weight' && r.value !== null;
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { minLength: 0, maxLength: 60 }),
        fc.array(fc.integer({ min: 1, max: 700 }), { minLength: 1, maxLength: 20 }),
        fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 20 }),
        async (rows, cuts, messageSizes) => {
          await client.query('TRUNCATE pg_temp.readings');
          await client.query(
            `INSERT INTO pg_temp.readings
             SELECT n, metric_key, date '2000-01-01' + local_date, time '00:00' + local_time * interval '1 microsecond',
                    utc_offset_minutes, timestamptz '2000-01-01 00:00:00+00' + measured_at * interval '1 microsecond',
                    value, value_json::jsonb, participant_device_id, provider, display_value, display_unit
               FROM unnest($1::int[], $2::text[], $3::int[], $4::float8[], $5::int[], $6::float8[], $7::float8[],
                           $8::text[], $9::int[], $10::text[], $11::float8[], $12::text[])
                 AS u(n, metric_key, local_date, local_time, utc_offset_minutes, measured_at, value, value_json,
                      participant_device_id, provider, display_value, display_unit)`,
            [
              rows.map((_, i) => i),
              rows.map((r) => r.metric_key),
              rows.map((r) => r.local_date),
              rows.map((r) => r.local_time),
              rows.map((r) => r.utc_offset_minutes),
              rows.map((r) => r.measured_at),
              rows.map((r) => r.value),
              rows.map((r) => r.value_json),
              rows.map((r) => r.participant_device_id),
              rows.map((r) => r.provider),
              rows.map((r) => (shown(r) ? DISPLAY_UNITS.weight!.convert(r.value!) : null)),
              rows.map((r) => (shown(r) ? 'Lbs, "US"' : null)),
            ],
          );
          const expected = await copy(`COPY (${textSelect(client, 'EXA001', units)}) TO STDOUT (FORMAT csv)`);
          const binary = await copy(
            `COPY (SELECT ${BINARY_COLUMNS.join(', ')} FROM pg_temp.readings r ORDER BY r.n) TO STDOUT (FORMAT binary)`,
          );
          const framed = frame(binary, messageSizes);
          const csv = new BinaryCopyCsv(constants);
          const out: Buffer[] = [];
          let at = 0;
          for (let i = 0; at < framed.length; i++) {
            const n = cuts[i % cuts.length]!;
            out.push(...csv.write(framed.subarray(at, at + n)));
            at += n;
          }
          out.push(csv.end());
          expect(csv.rows).toBe(rows.length);
          expect(Buffer.concat(out).toString('utf8')).toBe(expected.toString('utf8'));
        },
      ),
      { numRuns: 150, ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}) },
    );
  });

  it('a COPY cut short, or not a binary COPY, is an error, never a short file', () => {
    const none = { code: 'X', unitOf: new Map(), deviceOf: new Map(), displayOf: new Map() };
    const cut = new BinaryCopyCsv(none);
    cut.write(frame(Buffer.from('PGCOPY\n\xff\r\n\0\0\0\0\0\0\0\0\0', 'latin1'), [300]));
    expect(() => cut.end()).toThrow('the COPY ended mid-row');
    const text = new BinaryCopyCsv(none);
    expect(() => text.write(frame(Buffer.from('EXA001,steps,2026-01-01,00:00:00\n'), [300]))).toThrow(
      'not a binary COPY',
    );
    expect(() => new BinaryCopyCsv(none).write(Buffer.from('EXA001,steps\n'))).toThrow(
      'not a CopyData message',
    );
  });
});
