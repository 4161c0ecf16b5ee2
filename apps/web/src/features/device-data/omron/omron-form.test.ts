import { SCALE_FORM_MESSAGES } from '@trialwear/contract';
import { describe, expect, it } from 'vitest';
import { defaultOmronForm, toOmronQuery, validateOmronForm } from './omron-form';

const now = new Date(2026, 10, 15, 10, 0, 0); // 15 Nov 2026, local

describe('Omron form', () => {
  it('defaults to blood pressure since 7 days ago, all results, ascending', () => {
    expect(defaultOmronForm(undefined, now)).toEqual({
      category: 'bloodPressure',
      startDate: '2026-11-08',
      limit: '0',
      sortOrder: 'asc',
    });
    expect(defaultOmronForm('weight', now).category).toBe('weight');
    expect(defaultOmronForm('nonsense', now).category).toBe('bloodPressure');
  });

  it('starts on a day asked for (a study-health cell), unless it is in the future or not a date', () => {
    expect(defaultOmronForm(undefined, now, '2026-11-12')).toMatchObject({
      startDate: '2026-11-12',
      sortOrder: 'asc',
    });
    expect(defaultOmronForm(undefined, now, '2026-11-16').startDate).toBe('2026-11-08');
    expect(defaultOmronForm(undefined, now, 'yesterday').startDate).toBe('2026-11-08');
  });

  it('gives each message of core §5', () => {
    const ok = defaultOmronForm(undefined, now);
    expect(validateOmronForm(ok, now)).toEqual({});
    expect(validateOmronForm({ ...ok, category: '' }, now)).toEqual({
      category: SCALE_FORM_MESSAGES.category,
    });
    expect(validateOmronForm({ ...ok, startDate: '' }, now)).toEqual({
      startDate: SCALE_FORM_MESSAGES.startDate,
    });
    expect(validateOmronForm({ ...ok, limit: '' }, now)).toEqual({ limit: SCALE_FORM_MESSAGES.limit });
    expect(validateOmronForm({ ...ok, limit: '50' }, now)).toEqual({ limit: SCALE_FORM_MESSAGES.limit });
    expect(validateOmronForm({ ...ok, startDate: '2026-11-16' }, now)).toEqual({
      startDate: SCALE_FORM_MESSAGES.future,
    });
    // Today is not the future.
    expect(validateOmronForm({ ...ok, startDate: '2026-11-15' }, now)).toEqual({});
  });

  it('sends the limit as a number', () => {
    expect(
      toOmronQuery({ category: 'weight', startDate: '2026-11-01', limit: '30', sortOrder: 'desc' }),
    ).toEqual({
      category: 'weight',
      since: '2026-11-01',
      sortOrder: 'desc',
      limit: 30,
    });
  });
});
