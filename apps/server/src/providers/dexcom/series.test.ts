import { joinSeries } from '@trialwear/contract';
import { describe, expect, it } from 'vitest';
import type { ProviderAnswer } from '../types.js';
import { dexcomSeries, newestSystemTime } from './series.js';

const window = (resource: string) => ({
  resource,
  params: { startDate: '2026-10-25T00:00:00', endDate: '2026-10-26T00:00:00' },
});
const answer = (resource: string, records: unknown[]): ProviderAnswer => ({
  request: `/v3/users/self/${resource}?startDate=2026-10-25T00%3A00%3A00&endDate=2026-10-26T00%3A00%3A00`,
  status: 200,
  headers: {},
  body: { recordType: resource, records },
});

describe('Dexcom answer → series', () => {
  // systemTime is the instant (the receiver's clock may be off: displayTime is what it showed).
  // London leaves BST on 2026-10-25 at 01:00Z: 00:55Z shows 01:55+01:00, then 01:00Z shows 01:00+00:00.
  // A phone at -05:00 shows the previous local date for an early-UTC instant.
  const egvs = [
    {
      recordId: 'b',
      systemTime: '2026-10-25T01:00:00Z',
      displayTime: '2026-10-25T01:00:00+00:00',
      value: 101,
      trend: 'flat',
      trendRate: 0.2,
      unit: 'mg/dL',
    },
    {
      recordId: 'a',
      systemTime: '2026-10-25T00:55:00Z',
      displayTime: '2026-10-25T01:55:00+01:00',
      value: 100,
      trend: 'notComputable',
      trendRate: null,
    },
    {
      recordId: 'c',
      systemTime: '2026-10-25T03:10:00Z',
      displayTime: '2026-10-24T22:12:31.250-05:00', // the receiver's clock 2.5 min ahead
      value: null,
      trend: null,
    },
    { recordId: 'd', systemTime: '2026-10-25T03:15:00Z', displayTime: '2026-10-24T22:15:00', value: 99 },
    { recordId: 'e', systemTime: 'later', displayTime: '2026-10-24T22:20:00-05:00', value: 98 },
  ];

  it('egvs: one `egv` point per record at systemTime, local date, time and offset of displayTime, oldest first', () => {
    const { series } = dexcomSeries(window('egvs'), answer('egvs', egvs), null);
    expect(series).toHaveLength(1);
    const [egv] = series;
    expect(egv).toMatchObject({ metric: 'egv', unit: 'mg/dL', timeZone: null });
    expect(egv!.source).toEqual({ provider: 'dexcom', requests: [answer('egvs', []).request] });
    // d (no offset in displayTime) and e (no instant) are left out.
    expect(egv!.points!.map((p) => [p.at, p.date, p.time, p.offsetMinutes, p.value])).toEqual([
      ['2026-10-25T00:55:00.000Z', '2026-10-25', '01:55:00', 60, 100],
      ['2026-10-25T01:00:00.000Z', '2026-10-25', '01:00:00', 0, 101],
      ['2026-10-25T03:10:00.000Z', '2026-10-24', '22:12:31', -300, null],
    ]);
    expect(egv!.points!.map((p) => p.detail)).toEqual([
      {
        recordId: 'a',
        trend: 'notComputable',
        trendRate: null,
        systemTime: '2026-10-25T00:55:00Z',
        displayTime: '2026-10-25T01:55:00+01:00',
      },
      {
        recordId: 'b',
        trend: 'flat',
        trendRate: 0.2,
        systemTime: '2026-10-25T01:00:00Z',
        displayTime: '2026-10-25T01:00:00+00:00',
      },
      {
        recordId: 'c',
        trend: null,
        trendRate: null,
        systemTime: '2026-10-25T03:10:00Z',
        displayTime: '2026-10-24T22:12:31.250-05:00',
      },
    ]);
    expect(newestSystemTime(answer('egvs', egvs))).toBe(Date.parse('2026-10-25T03:15:00Z'));
  });

  it('calibrations in mg/dL; events with their number, Dexcom’s text and their own unit in detail', () => {
    const cal = dexcomSeries(
      window('calibrations'),
      answer('calibrations', [
        {
          recordId: 'k',
          systemTime: '2026-10-25T09:01:00Z',
          displayTime: '2026-10-25T09:01:00+0000',
          value: 112,
          unit: 'mg/dL',
        },
      ]),
      null,
    ).series[0]!;
    expect(cal).toMatchObject({ metric: 'calibrations', unit: 'mg/dL' });
    expect(cal.points).toEqual([
      {
        at: '2026-10-25T09:01:00.000Z',
        date: '2026-10-25',
        time: '09:01:00',
        offsetMinutes: 0,
        value: 112,
        detail: { recordId: 'k', unit: 'mg/dL' },
      },
    ]);
    const ev = (recordId: string, value: unknown) => ({
      recordId,
      systemTime: '2026-10-25T12:28:00Z',
      displayTime: '2026-10-25T07:28:00-05:00',
      eventType: 'insulin',
      eventSubType: 'fastActing',
      eventStatus: 'created',
      value,
      unit: 'units',
    });
    const events = dexcomSeries(
      window('events'),
      answer('events', [ev('x', '4.5'), ev('y', 'lots'), ev('z', 7)]),
      null,
    ).series[0]!;
    expect(events.metric).toBe('events');
    expect(events.points!.map((p) => [p.value, p.text])).toEqual([
      [4.5, '4.5'],
      [null, 'lots'],
      [null, undefined],
    ]);
    expect(events.points![0]!.detail).toEqual({
      recordId: 'x',
      eventType: 'insulin',
      eventSubType: 'fastActing',
      eventStatus: 'created',
      unit: 'units',
    });
  });

  it('devices and dataRange have no series', () => {
    expect(dexcomSeries({ resource: 'devices', params: {} }, answer('devices', []), null)).toEqual({
      series: [],
    });
    expect(dexcomSeries({ resource: 'dataRange', params: {} }, answer('dataRange', []), null)).toEqual({
      series: [],
    });
  });

  it('two windows joined: the shared edge once, two records of one second both kept (by record id)', () => {
    const ev = (recordId: string, systemTime: string) => ({
      recordId,
      systemTime,
      displayTime: `${systemTime.slice(0, 19)}+00:00`,
      eventType: 'carbs',
      value: '30',
      unit: 'grams',
    });
    const first = dexcomSeries(
      window('events'),
      answer('events', [ev('m', '2026-10-25T12:00:00Z')]),
      null,
    ).series;
    const second = dexcomSeries(
      window('events'),
      answer('events', [ev('m', '2026-10-25T12:00:00Z'), ev('n', '2026-10-25T12:00:00Z')]),
      null,
    ).series;
    const [joined] = joinSeries([first, second]);
    expect(joined!.points!.map((p) => p.detail?.recordId)).toEqual(['m', 'n']);
    expect(joined!.source.requests).toHaveLength(2);
  });
});
