/*
 * The FHIR R4 export (issue #25 item 1, decision 046): a week of steps,
 * 1-minute heart rate, weight, blood pressure and glucose of a participant
 * linked to the Fitbit, Omron and Dexcom simulators and synced, written as
 * FHIR NDJSON: every resource validates against R4 with Medplum's validator
 * (0 errors), each Observation's value, code, unit and time equal the
 * provider's reading (the simulators' own data), blood pressure is one panel
 * per reading, the Patient is pseudonymous, every Device referenced exists;
 * the manifest counts and hashes the files; the dictionary says how each
 * metric is coded.
 */
import type { Observation } from '@medplum/fhirtypes';
import { dexcomEgvs, fitbitDay, omronDay } from '@trialwear/simulators';
import { addDays } from '@trialwear/zone';
import { beforeAll, describe, expect, it } from 'vitest';
import { validateFhir } from '../../src/features/data-export/archive/fhir/validate.js';
import { storedReadings } from '../../src/features/readings/repo.js';
import { END, ndjson, START, useStandardsWorld } from './support/standards-world.js';
import { sha256 } from './support/zip.js';

const METRICS = ['diastolic', 'egv', 'heart_rate_intraday', 'steps', 'systolic', 'weight'];
const code = (o: Observation) => o.code.coding![0]!.code;
const instant = (o: Observation) => Date.parse(o.effectiveDateTime!);

describe('the FHIR R4 export', () => {
  const w = useStandardsWorld();
  let entries: Map<string, Buffer>;
  beforeAll(async () => {
    entries = await w.archive('fhir', METRICS);
  }, 60_000);

  it('holds the Bulk Data files, the dictionary and the manifest, which counts and hashes them', () => {
    expect([...entries.keys()]).toEqual([
      'Patient.ndjson',
      'Device.ndjson',
      'Observation.ndjson',
      'data_dictionary.csv',
      'manifest.json',
    ]);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString('utf8'));
    expect(manifest.export.format).toBe('fhir');
    for (const f of manifest.files) {
      const data = entries.get(f.name)!;
      expect(sha256(data), f.name).toBe(f.sha256);
      if (f.name.endsWith('.ndjson')) expect(ndjson(data).length, f.name).toBe(f.rows);
    }
    const dictionary = entries.get('data_dictionary.csv')!.toString('utf8').split('\n');
    expect(dictionary[0]).toBe(
      'metric_key,metric_name,unit,description,source,device_type,fhir_code_system,fhir_code,ucum_unit,fhir_category',
    );
    expect(dictionary.find((l) => l.startsWith('egv,'))).toContain(
      ',http://loinc.org,99504-3,mg/dL,laboratory',
    );
    expect(dictionary.find((l) => l.startsWith('systolic,'))).toContain(
      ',http://loinc.org,85354-9 component 8480-6,mm[Hg],vital-signs',
    );
  });

  it('every resource validates against FHIR R4 (Medplum), with 0 errors', () => {
    let n = 0;
    for (const name of ['Patient.ndjson', 'Device.ndjson', 'Observation.ndjson'])
      for (const r of ndjson(entries.get(name)!)) {
        expect(() => validateFhir(r as never), JSON.stringify(r).slice(0, 200)).not.toThrow();
        n++;
      }
    expect(n).toBeGreaterThan(5000);
  });

  it('a pseudonymous Patient and the three linked devices, every reference resolving', () => {
    const [patient, ...others] = ndjson(entries.get('Patient.ndjson')!);
    expect(others).toEqual([]);
    expect(patient).toEqual({
      resourceType: 'Patient',
      id: `participant-${w.pid}`,
      identifier: [{ system: 'urn:trialwear:participant-code', value: expect.any(String) }],
    });
    expect(entries.get('Patient.ndjson')!.toString()).not.toContain('standards@x.example');
    const devices = ndjson(entries.get('Device.ndjson')!);
    expect(devices.map((d) => d.manufacturer).sort()).toEqual(['Dexcom', 'Fitbit', 'Omron']);
    const ids = new Set(devices.map((d) => `Device/${d.id}`));
    for (const o of ndjson(entries.get('Observation.ndjson')!) as unknown as Observation[]) {
      expect(o.subject).toEqual({ reference: `Patient/participant-${w.pid}` });
      expect(ids.has(o.device!.reference!), o.id).toBe(true);
    }
  });

  it("each Observation's value, code, unit and time are the provider's", async () => {
    const obs = ndjson(entries.get('Observation.ndjson')!) as unknown as Observation[];
    const byCode = (c: string) => obs.filter((o) => code(o) === c);
    const week = Array.from({ length: 7 }, (_, i) => addDays(START, i));

    // Steps: one per local day, the day's total (the Fitbit simulator's).
    expect(byCode('41950-7').map((o) => [o.effectiveDateTime, o.valueQuantity])).toEqual(
      week.map((d) => [
        d,
        {
          value: fitbitDay(w.users.fitbit, d).steps,
          unit: 'steps/day',
          system: 'http://unitsofmeasure.org',
          code: '/d',
        },
      ]),
    );

    // Heart rate: each stored minute (equal to the simulator's, device-sync tests), at its local time and offset.
    const stored = (await storedReadings(w.t.ctx.db, w.pid, 'heart_rate_intraday')).filter(
      (r) => r.local_date >= START && r.local_date <= END,
    );
    const hr = byCode('8867-4');
    expect(hr.length).toBe(stored.length);
    expect(hr.length).toBeGreaterThan(3000);
    hr.forEach((o, i) => {
      const s = stored[i]!;
      expect(instant(o), o.id).toBe(new Date(s.measured_at).getTime());
      expect(o.effectiveDateTime!.slice(0, 19)).toBe(`${s.local_date}T${s.local_time}`);
      expect(o.valueQuantity).toEqual({
        value: s.value,
        unit: 'beats/minute',
        system: 'http://unitsofmeasure.org',
        code: '/min',
      });
    });

    // Blood pressure and weight: the Omron simulator's readings of the week, one panel per reading.
    const omron = week.map((d) => omronDay(w.users.omron, d));
    const bp = omron
      .flatMap((d) => d.bloodPressure)
      .sort((x, y) => Date.parse(x.dateTime) - Date.parse(y.dateTime));
    expect(bp.length).toBeGreaterThan(5);
    expect(
      byCode('85354-9').map((o) => [
        instant(o),
        o.effectiveDateTime!.slice(0, 19),
        o.component!.map((c) => [code(c as Observation), c.valueQuantity!.value, c.valueQuantity!.code]),
      ]),
    ).toEqual(
      bp.map((r) => [
        Date.parse(r.dateTime),
        r.dateTimeLocal.slice(0, 19),
        [
          ['8480-6', r.systolic, 'mm[Hg]'],
          ['8462-4', r.diastolic, 'mm[Hg]'],
        ],
      ]),
    );
    const kg = omron.flatMap((d) => d.weight).sort((x, y) => Date.parse(x.dateTime) - Date.parse(y.dateTime));
    expect(byCode('29463-7').map((o) => [instant(o), o.valueQuantity!.value, o.valueQuantity!.code])).toEqual(
      kg.map((w) => [Date.parse(w.dateTime), w.weight, 'kg']),
    );

    // Glucose: every EGV of the participant's local week (the Dexcom simulator's), in mg/dL.
    const egvs = dexcomEgvs(
      w.users.dexcom,
      Date.parse('2027-03-10T00:00:00Z'),
      Date.parse('2027-03-21T00:00:00Z'),
    ).filter((e) => e.displayTime.slice(0, 10) >= START && e.displayTime.slice(0, 10) <= END);
    expect(
      byCode('99504-3').map((o) => [
        instant(o),
        o.effectiveDateTime,
        o.valueQuantity!.value,
        o.valueQuantity!.code,
      ]),
    ).toEqual(egvs.map((e) => [Date.parse(e.systemTime), e.displayTime, e.value, 'mg/dL']));
    // Nothing else: the six metrics asked, blood pressure as panels.
    expect(obs.length).toBe(7 + hr.length + bp.length + kg.length + egvs.length);
  });
});
