/*
 * The Open mHealth export (issue #25 item 2, decision 047): a week of
 * steps, 1-minute heart rate, resting heart rate, sleep, blood pressure,
 * weight and glucose of a participant linked to the Fitbit, Omron and
 * Dexcom simulators, written as Open mHealth data points: every data point
 * validates with ajv against the published schemas kept in omh-schemas/
 * (data-point, header and its body schema), its values are the provider's,
 * the header carries id/uuid, schema id, creation times and provenance;
 * the manifest names what no schema holds.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dexcomEgvs, fitbitDay, omronDay } from '@trialwear/simulators';
import { addDays } from '@trialwear/zone';
import draft07 from 'ajv/dist/refs/json-schema-draft-07.json' with { type: 'json' };
import ajvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { END, ndjson, START, useStandardsWorld } from './support/standards-world.js';
import { sha256 } from './support/zip.js';

const METRICS = [
  'diastolic',
  'distance',
  'egv',
  'heart_rate_intraday',
  'resting_heart_rate',
  'sleep_duration',
  'steps',
  'systolic',
  'weight',
];
const SCHEMAS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'omh-schemas');
const BASE = 'https://w3id.org/openmhealth/schemas/omh/';

/** The published schemas under their own base, the `1.x` links as the repository has them; draft-04 and -07 alike. */
// CommonJS packages: imported from ESM, their export is the module object; the class and the plugin are its `default`.
const AjvDraft04 = ajvDraft04.default;
const addFormats = ajvFormats.default;

function validator() {
  const ajv = new AjvDraft04({ allErrors: true, strict: false, validateSchema: false });
  ajv.addMetaSchema(draft07 as never);
  addFormats(ajv as never);
  const aliases = JSON.parse(fs.readFileSync(path.join(SCHEMAS, 'aliases.json'), 'utf8')) as Record<
    string,
    string
  >;
  const load = (file: string) => {
    const schema = JSON.parse(fs.readFileSync(path.join(SCHEMAS, file), 'utf8'));
    delete schema.$schema; // one vocabulary for both drafts: the keywords they use are the same
    return schema;
  };
  for (const file of fs.readdirSync(SCHEMAS).filter((f) => f.endsWith('.json') && f !== 'aliases.json'))
    ajv.addSchema({ ...load(file), id: `${BASE}${file}` });
  for (const [alias, target] of Object.entries(aliases))
    ajv.addSchema({ ...load(target), id: `${BASE}${alias}` });
  return (schema: string, value: unknown) => {
    const validate = ajv.getSchema(`${BASE}${schema}`)!;
    return validate(value) ? [] : (validate.errors ?? []);
  };
}

// The data points as parsed JSON, read by path in the assertions (their shape is what ajv checks).
// biome-ignore lint/suspicious/noExplicitAny: see above
type Json = any;
type Point = { header: Record<string, Json>; body: Record<string, Json> };

describe('the Open mHealth export', () => {
  const w = useStandardsWorld([
    'steps',
    'heart_rate_intraday',
    'resting_heart_rate',
    'sleep_duration',
    'distance',
  ]);
  let entries: Map<string, Buffer>;
  const points = (file: string) => ndjson(entries.get(file)!) as unknown as Point[];
  beforeAll(async () => {
    entries = await w.archive('omh', METRICS);
  }, 60_000);

  it('one NDJSON file per body schema, the dictionary and a manifest that counts, hashes and names what is left out', () => {
    expect([...entries.keys()]).toEqual([
      'step-count.ndjson',
      'heart-rate.ndjson',
      'blood-pressure.ndjson',
      'body-weight.ndjson',
      'blood-glucose.ndjson',
      'total-sleep-time.ndjson',
      'data_dictionary.csv',
      'manifest.json',
    ]);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString('utf8'));
    expect(manifest.export.format).toBe('omh');
    for (const f of manifest.files) {
      expect(sha256(entries.get(f.name)!), f.name).toBe(f.sha256);
      if (f.name.endsWith('.ndjson')) expect(ndjson(entries.get(f.name)!).length, f.name).toBe(f.rows);
    }
    expect(manifest.conventions.not_exported).toEqual({
      metrics_without_schema: ['distance'],
      readings_without_value: 0,
      blood_pressure_halves_without_the_other: 0,
    });
    const dictionary = entries.get('data_dictionary.csv')!.toString('utf8').split('\n');
    expect(dictionary[0]).toBe('metric_key,metric_name,unit,description,source,device_type,omh_schema');
    expect(dictionary.find((l) => l.startsWith('egv,'))).toMatch(/,omh:blood-glucose:3\.0$/);
    expect(dictionary.find((l) => l.startsWith('distance,'))).toMatch(/,$/);
  });

  it('every data point validates against the published schemas: the data point, its header and its body', () => {
    const check = validator();
    let n = 0;
    for (const file of [...entries.keys()].filter((f) => f.endsWith('.ndjson')))
      for (const p of points(file)) {
        const s = p.header.schema_id;
        expect(check('data-point-1.0.json', p), file).toEqual([]);
        expect(check('header-1.2.json', p.header), file).toEqual([]);
        expect(check(`${s.name}-${s.version}.json`, p.body), `${file} ${JSON.stringify(p.body)}`).toEqual([]);
        n++;
      }
    expect(n).toBeGreaterThan(5000);
    // And a wrong body is refused (the check can fail).
    expect(
      check('blood-glucose-3.0.json', { blood_glucose: { value: 5, unit: 'mg' } }).length,
    ).toBeGreaterThan(0);
  });

  it('the header: a stable name-based uuid as id, the schema id, creation times, provenance and the participant code', async () => {
    const [first] = points('blood-glucose.ndjson');
    expect(first!.header).toMatchObject({
      id: first!.header.uuid,
      schema_id: { namespace: 'omh', name: 'blood-glucose', version: '3.0' },
      acquisition_provenance: { source_name: 'Dexcom', modality: 'sensed' },
      user_id: expect.any(String),
    });
    expect(first!.header.uuid).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(first!.header.source_creation_date_time).toBe(first!.body.effective_time_frame.date_time);
    const again = ndjson(
      (await w.archive('omh', ['egv'])).get('blood-glucose.ndjson')!,
    ) as unknown as Point[];
    expect(again[0]!.header.uuid).toBe(first!.header.uuid);
    expect(JSON.stringify([...entries.values()].map(String))).not.toContain('standards@x.example');
  });

  it("the bodies hold the provider's values, at the participant's local times", () => {
    const week = Array.from({ length: 7 }, (_, i) => addDays(START, i));
    const steps = points('step-count.ndjson');
    expect(
      steps.map((p) => [
        p.body.effective_time_frame.time_interval.start_date_time.slice(0, 10),
        p.body.step_count.value,
      ]),
    ).toEqual(week.map((d) => [d, fitbitDay(w.users.fitbit, d).steps]));
    expect(steps[0]!.body.effective_time_frame.time_interval.duration).toEqual({ value: 1, unit: 'd' });

    const heart = points('heart-rate.ndjson');
    const resting = heart.filter((p) => p.body.temporal_relationship_to_physical_activity === 'at rest');
    expect(resting.map((p) => p.body.heart_rate.value)).toEqual(
      week.map((d) => fitbitDay(w.users.fitbit, d).restingHeartRate).filter((v) => v !== null),
    );
    expect(heart.length - resting.length).toBeGreaterThan(3000);

    const sleep = points('total-sleep-time.ndjson');
    const nights = week.map((d) => fitbitDay(w.users.fitbit, d).sleep).filter((s) => s !== null);
    expect(
      sleep.map((p) => [
        p.body.total_sleep_time,
        p.body.effective_time_frame.time_interval.start_date_time.slice(0, 19),
      ]),
    ).toEqual(nights.map((s) => [{ value: s!.minutesAsleep, unit: 'min' }, s!.start.slice(0, 19)]));

    const omron = week.map((d) => omronDay(w.users.omron, d));
    const bp = omron
      .flatMap((d) => d.bloodPressure)
      .sort((x, y) => Date.parse(x.dateTime) - Date.parse(y.dateTime));
    expect(
      points('blood-pressure.ndjson').map((p) => [
        Date.parse(p.body.effective_time_frame.date_time),
        p.body.systolic_blood_pressure.value,
        p.body.diastolic_blood_pressure.value,
      ]),
    ).toEqual(bp.map((r) => [Date.parse(r.dateTime), r.systolic, r.diastolic]));
    const kg = omron.flatMap((d) => d.weight).sort((x, y) => Date.parse(x.dateTime) - Date.parse(y.dateTime));
    expect(
      points('body-weight.ndjson').map((p) => [
        Date.parse(p.body.effective_time_frame.date_time),
        p.body.body_weight,
      ]),
    ).toEqual(kg.map((x) => [Date.parse(x.dateTime), { value: x.weight, unit: 'kg' }]));

    const egvs = dexcomEgvs(
      w.users.dexcom,
      Date.parse('2027-03-10T00:00:00Z'),
      Date.parse('2027-03-21T00:00:00Z'),
    ).filter((e) => e.displayTime.slice(0, 10) >= START && e.displayTime.slice(0, 10) <= END);
    expect(
      points('blood-glucose.ndjson').map((p) => [
        p.body.effective_time_frame.date_time,
        p.body.blood_glucose.value,
        p.body.specimen_source,
      ]),
    ).toEqual(egvs.map((e) => [e.displayTime, e.value, 'interstitial fluid']));
  });
});
