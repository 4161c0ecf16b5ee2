import { describe, expect, it } from 'vitest';
import { FHIR_METRICS, LOINC, METRIC_SYSTEM } from './codes.js';
import {
  bloodPressureOf,
  deviceResource,
  type ExportReading,
  observationOf,
  patientResource,
} from './resources.js';
import { FhirShapeCheck, validateFhir } from './validate.js';

const reading = (metric: string, more: Partial<ExportReading> = {}): ExportReading => ({
  participantId: 7,
  metric,
  metricName: `Name of ${metric}`,
  localDate: '2026-11-01',
  localTime: '08:30:00',
  offset: '-05:00',
  instantUs: 1_793_539_800_000_000,
  value: 61.5,
  valueJson: null,
  deviceId: 3,
  provider: 'fitbit',
  ...more,
});

describe('the FHIR R4 resources of the export', () => {
  it('every coded metric as an Observation that validates against R4, its LOINC code where it has one', () => {
    for (const metric of Object.keys(FHIR_METRICS)) {
      const o = observationOf(reading(metric));
      expect(() => validateFhir(o), metric).not.toThrow();
      expect(o.status).toBe('final');
      expect(o.subject).toEqual({ reference: 'Patient/participant-7' });
      expect(o.code.coding!.at(-1)).toEqual({
        system: METRIC_SYSTEM,
        code: metric,
        display: `Name of ${metric}`,
      });
      if (FHIR_METRICS[metric]!.loinc) expect(o.code.coding![0]!.system).toBe(LOINC);
    }
  });

  it('the issue’s codes and units: steps per day, heart rate per minute, weight in kg, glucose in mg/dL', () => {
    const steps = observationOf(reading('steps', { value: 8123, localTime: '00:00:00' }));
    expect(steps.code.coding![0]!.code).toBe('41950-7');
    expect(steps.valueQuantity).toEqual({
      value: 8123,
      unit: 'steps/day',
      system: 'http://unitsofmeasure.org',
      code: '/d',
    });
    // A day's value is of the local date (FHIR date precision), not of an instant.
    expect(steps.effectiveDateTime).toBe('2026-11-01');
    expect(steps.category![0]!.coding![0]!.code).toBe('activity');
    const hr = observationOf(reading('heart_rate_intraday', { value: 72 }));
    expect([hr.code.coding![0]!.code, hr.valueQuantity!.code, hr.effectiveDateTime]).toEqual([
      '8867-4',
      '/min',
      '2026-11-01T08:30:00-05:00',
    ]);
    expect(observationOf(reading('resting_heart_rate')).code.coding![0]!.code).toBe('40443-4');
    expect(observationOf(reading('sleep_duration')).code.coding![0]!.code).toBe('93832-4');
    expect(observationOf(reading('weight')).valueQuantity!.code).toBe('kg');
    const egv = observationOf(reading('egv', { value: 104 }));
    expect([egv.code.coding![0]!.code, egv.valueQuantity!.code, egv.category![0]!.coding![0]!.code]).toEqual([
      '99504-3',
      'mg/dL',
      'laboratory',
    ]);
  });

  it('blood pressure: one panel whose components are the systolic and diastolic readings', () => {
    const bp = bloodPressureOf(reading('systolic', { value: 168 }), reading('diastolic', { value: 102 }));
    expect(() => validateFhir(bp)).not.toThrow();
    expect(bp.code.coding![0]!.code).toBe('85354-9');
    expect(
      bp.component!.map((c) => [c.code.coding![0]!.code, c.valueQuantity!.value, c.valueQuantity!.code]),
    ).toEqual([
      ['8480-6', 168, 'mm[Hg]'],
      ['8462-4', 102, 'mm[Hg]'],
    ]);
    const half = bloodPressureOf(null, reading('diastolic', { value: 80 }));
    expect(() => validateFhir(half)).not.toThrow();
    expect(half.component![0]!.dataAbsentReason).toBeDefined();
  });

  it('no value, no offset, sleep stages and a fraction of a second still validate', () => {
    for (const o of [
      observationOf(reading('events', { value: null })),
      observationOf(reading('egv', { offset: null, localTime: null, instantUs: 1_793_539_800_123_400 })),
      observationOf(
        reading('sleep_stages', { valueJson: '{"deep": 61, "light": 200, "rem": 90, "wake": 31}' }),
      ),
      observationOf(reading('steps_intraday', { deviceId: null })),
    ])
      expect(() => validateFhir(o), o.id).not.toThrow();
    expect(
      observationOf(reading('egv', { offset: null, localTime: null, instantUs: 1_793_539_800_123_400 }))
        .effectiveDateTime,
    ).toBe('2026-11-01T13:30:00.1234Z');
    expect(observationOf(reading('sleep_stages', { valueJson: '{"deep": 61}' })).component).toHaveLength(1);
  });

  it('a night: its period from the provider’s start and end with the stored offset, else its date', () => {
    const night = observationOf(
      reading('sleep_duration', {
        localTime: '00:00:00',
        value: 412,
        valueJson: '{"endTime": "2026-11-01T06:40:00.000", "startTime": "2026-10-31T23:10:00.000"}',
      }),
    );
    expect(() => validateFhir(night)).not.toThrow();
    expect(night.effectivePeriod).toEqual({
      start: '2026-10-31T23:10:00-05:00',
      end: '2026-11-01T06:40:00-05:00',
    });
    expect(night.effectiveDateTime).toBeUndefined();
    expect(observationOf(reading('sleep_duration', { valueJson: null })).effectiveDateTime).toBe(
      '2026-11-01',
    );
  });

  it('a pseudonymous Patient (the participant code only) and a Device per link', () => {
    const p = patientResource({ id: 7, code: 'TRIAL-007' });
    expect(() => validateFhir(p)).not.toThrow();
    expect(p).toEqual({
      resourceType: 'Patient',
      id: 'participant-7',
      identifier: [{ system: 'urn:trialwear:participant-code', value: 'TRIAL-007' }],
    });
    const d = deviceResource({ id: 3, participantId: 7, provider: 'omron', name: 'Omron HEM-7155T' });
    expect(() => validateFhir(d)).not.toThrow();
    expect(d.manufacturer).toBe('Omron');
  });

  it('the shape check: the first of a shape validated, a bad time, id or number refused', () => {
    const check = new FhirShapeCheck();
    check.check(observationOf(reading('steps')));
    check.check(observationOf(reading('steps', { value: 9 })));
    expect(check.fullyValidated).toBe(1);
    expect(() => check.check(observationOf(reading('egv', { offset: '+5:00' })))).toThrow(/dateTime/);
    expect(() => check.check(observationOf(reading('egv', { value: Number.NaN })))).toThrow(/decimal/);
    expect(() => check.check({ ...observationOf(reading('egv')), id: 'a_b' })).toThrow(/id/);
    expect(() => check.check({ ...observationOf(reading('egv')), bogus: 1 } as never)).toThrow(/bogus/);
  });
});
