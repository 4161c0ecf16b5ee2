import { TRACKER_FORM_MESSAGES } from '@trialwear/contract';
import { describe, expect, it } from 'vitest';
import { periodRange, periodsFor, splitRange, validateTimeWindow, validateTrackerForm } from './periods';

const today = '2026-11-22';

describe('tracker query form (core §5)', () => {
  it('asks for a period', () => {
    expect(validateTrackerForm({ period: '', startDate: '', endDate: '' }, today)).toEqual({
      period: TRACKER_FORM_MESSAGES.period,
    });
  });
  it('needs both custom dates', () => {
    expect(validateTrackerForm({ period: 'customDates', startDate: '', endDate: '' }, today)).toEqual({
      startDate: 'Please select a start date',
      endDate: 'Please select an end date',
    });
  });
  it('refuses future dates and an end before the start', () => {
    expect(
      validateTrackerForm({ period: 'customDates', startDate: '2026-11-23', endDate: '2026-11-24' }, today),
    ).toEqual({ startDate: TRACKER_FORM_MESSAGES.future, endDate: TRACKER_FORM_MESSAGES.future });
    expect(
      validateTrackerForm({ period: 'customDates', startDate: '2026-11-10', endDate: '2026-11-09' }, today),
    ).toEqual({ endDate: 'End date cannot be before start date' });
    expect(
      validateTrackerForm({ period: 'customDates', startDate: '2026-11-10', endDate: today }, today),
    ).toEqual({});
  });
  it('wants both times of a window or neither', () => {
    expect(validateTimeWindow('08:00', '')).toBe('Please add start and end time');
    expect(validateTimeWindow('', '10:00')).toBe('Please add start and end time');
    expect(validateTimeWindow('08:00', '10:00')).toBeNull();
    expect(validateTimeWindow('', '')).toBeNull();
  });
});

describe('periods (core §9)', () => {
  it('offers 30 Days only for VO2 max, which offers only Today, Week, 30 Days', () => {
    expect(periodsFor('vo2Max')).toEqual(['1d', '7d', '30d']);
    expect(periodsFor('steps')).toEqual(['1d', '7d', '1m', '3m', '6m', '1y', 'customDates']);
  });
  it('ends every period today, both ends included', () => {
    expect(periodRange('1d', today)).toEqual({ start: today, end: today });
    expect(periodRange('7d', today)).toEqual({ start: '2026-11-16', end: today });
    expect(periodRange('30d', today)).toEqual({ start: '2026-10-24', end: today });
    expect(periodRange('1m', today)).toEqual({ start: '2026-10-23', end: today });
    expect(periodRange('1y', today)).toEqual({ start: '2025-11-23', end: today });
    expect(periodRange('1m', '2026-03-31')).toEqual({ start: '2026-03-01', end: '2026-03-31' });
  });
  it('splits a range into the provider’s longest requests', () => {
    expect(splitRange('2026-01-01', '2026-03-01', 31)).toEqual([
      { start: '2026-01-01', end: '2026-01-31' },
      { start: '2026-02-01', end: '2026-03-01' },
    ]);
    expect(splitRange('2026-01-01', '2026-01-01', 31)).toEqual([{ start: '2026-01-01', end: '2026-01-01' }]);
  });
});
