/*
 * Omron readings and Dexcom glucose records over real HTTP to the mounted
 * simulators, compared with the simulators' own generators: Omron by local
 * date across its truncated pages, in mmHg, bpm and kg; Dexcom over windows
 * of at most 30 days stitched into one period; the 429, team and role rules.
 */
import { DATA_MESSAGES } from '@trialwear/contract';
import { dexcomEgvs, omronDay } from '@trialwear/simulators';
import { parseOffset } from '@trialwear/zone';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { answerCacheOf } from '../../src/providers/answer-cache.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { linkParticipant, simControl, trialWithParticipants } from '../support/linked-participant.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

const NOW = '2027-03-15T18:00:00Z';
const clock = testClock(NOW);
const day = (d: string, n: number) =>
  new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

describe('Omron and Dexcom data', () => {
  let t: TestApp;
  let a: TeamFixture;
  let b: TeamFixture;
  let trialId: number;
  let otherTeam: number;

  beforeAll(async () => {
    t = await createTestApp({ listen: true, now: clock.now });
    a = await teamWithRoles(t, 'Scale A', { hiddenFields: [] });
    b = await teamWithRoles(t, 'Scale B', { hiddenFields: [] });
    ({ trialId } = await trialWithParticipants(a, 'Scale', []));
    [otherTeam] = (await trialWithParticipants(b, 'Other', ['bp-other@x.example'])).ids as [number];
    await simControl(t, 'omron').clock(NOW);
    await simControl(t, 'dexcom').clock(NOW);
    await linkParticipant(t, b, otherTeam, 'omron');
  });
  afterAll(() => t?.close());

  let participants = 0;
  /** A participant of the test's own, linked to Omron and Dexcom: their simulated users. */
  const linked = async () => {
    participants += 1;
    const pid = (
      await a.as.Admin.post('/api/trialParticipants', { trialId, email: `bp${participants}@x.example` })
    ).json().participantId as number;
    const omronUser = await linkParticipant(t, a, pid, 'omron');
    const dexcomUser = await linkParticipant(t, a, pid, 'dexcom');
    return { pid, omronUser, dexcomUser };
  };
  // Each case is about the provider's own answer: none is served from the 60-s answer cache
  // (provider-budget.int.test.ts tests the cache).
  beforeEach(() => {
    if (t) answerCacheOf(t.ctx).clear();
  });

  type Day = ReturnType<typeof omronDay>;
  /** Every reading generated for the Omron user on or after the local date `since`, up to NOW, oldest first. */
  function expected(omronUser: string, kind: 'bloodPressure', since: string): Day['bloodPressure'];
  function expected(omronUser: string, kind: 'weight', since: string): Day['weight'];
  function expected(omronUser: string, kind: 'bloodPressure' | 'weight', since: string) {
    const out: Array<{ dateTime: string; dateTimeLocal: string }> = [];
    for (let d = day(since, -2); d <= day(NOW.slice(0, 10), 1); d = day(d, 1))
      for (const r of omronDay(omronUser, d)[kind])
        if (r.dateTimeLocal.slice(0, 10) >= since && Date.parse(r.dateTime) <= Date.parse(NOW)) out.push(r);
    return out.sort((x, y) => Date.parse(x.dateTime) - Date.parse(y.dateTime));
  }
  const omron = (as: TeamFixture['as'][keyof TeamFixture['as']], id: number, queryStr: object) =>
    as.post(`/api/getOmronParticipantData/${id}`, { queryStr });

  it('blood pressure since a local date: every reading of the generator across pages, in mmHg and bpm', async () => {
    const { pid, omronUser } = await linked();
    const since = '2027-01-01'; // ~74 days: more than one page of 100 readings
    const res = await omron(a.as.Viewer, pid, {
      category: 'bloodPressure',
      since,
      sortOrder: 'asc',
      limit: 0,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const want = expected(omronUser, 'bloodPressure', since);
    expect(want.length).toBeGreaterThan(100);
    expect(body.bloodPressure).toEqual(
      want.map((r) => ({
        dateTimeLocal: r.dateTimeLocal,
        dateTime: r.dateTime,
        utcOffset: r.dateTimeUtcOffset,
        systolic: r.systolic,
        diastolic: r.diastolic,
        pulse: r.pulse,
      })),
    );
    expect(body.weight).toBeUndefined();
  });

  it('weight newest first, limited; kg as Omron sends it', async () => {
    const { pid, omronUser } = await linked();
    const since = '2027-03-01';
    const res = await omron(a.as.User, pid, { category: 'weight', since, sortOrder: 'desc', limit: 10 });
    expect(res.statusCode).toBe(200);
    const want = expected(omronUser, 'weight', since).reverse().slice(0, 10);
    expect(res.json().weight).toEqual(
      want.map((r) => ({
        dateTimeLocal: r.dateTimeLocal,
        dateTime: r.dateTime,
        utcOffset: r.dateTimeUtcOffset,
        weight: r.weight,
        bmi: r.bmi,
        bodyFat: r.bodyFat,
      })),
    );
  });

  it("a window without readings → 'Could not find any data!'; bad queries → 400; other team → 404", async () => {
    const { pid } = await linked();
    const future = await omron(a.as.Admin, pid, { category: 'weight', since: '2027-04-01', limit: 0 });
    expect(future.statusCode).toBe(404);
    expect(future.json()).toMatchObject({ message: DATA_MESSAGES.noData, displayToUser: true });
    expect((await omron(a.as.Admin, pid, { category: 'steps', since: '2027-03-01' })).statusCode).toBe(400);
    expect((await omron(a.as.Admin, pid, { category: 'weight', since: '2027-02-30' })).statusCode).toBe(400);
    expect(
      (await omron(a.as.Admin, pid, { category: 'weight', since: '2027-03-01', limit: 7 })).statusCode,
    ).toBe(400);
    expect((await omron(a.as.Admin, otherTeam, { category: 'weight', since: '2027-03-01' })).statusCode).toBe(
      404,
    );
  });

  it("Omron's 429 → 'Too Many Requests' with Retry-After after one call; a 5xx → the spec's Omron message", async () => {
    const { pid, omronUser } = await linked();
    const sim = simControl(t, 'omron');
    await sim.resetCalls();
    await sim.failNext(429, 2);
    try {
      const res = await omron(a.as.Admin, pid, { category: 'weight', since: '2027-03-01' });
      expect(res.statusCode).toBe(429);
      expect(res.json().message).toBe('Too Many Requests');
      expect(res.headers['retry-after']).toBe('60');
      expect(await sim.calls(omronUser)).toBe(1);
      await sim.failNext(500, 1);
      const failed = await omron(a.as.Admin, pid, { category: 'weight', since: '2027-03-01' });
      expect(failed.statusCode).toBe(502);
      expect(failed.json().message).toBe(DATA_MESSAGES.omronFailed);
    } finally {
      // The failures left are the simulator's (every test's): none for the next test, even when this one fails.
      await sim.failNext(429, 0);
    }
  });

  it('an expired Omron token is refreshed once and the call retried', async () => {
    const { pid, omronUser } = await linked();
    const sim = simControl(t, 'omron');
    await sim.expire(omronUser);
    await sim.resetCalls();
    const res = await omron(a.as.Viewer, pid, { category: 'weight', since: '2027-03-10' });
    expect(res.statusCode).toBe(200);
    expect(res.json().weight).toHaveLength(expected(omronUser, 'weight', '2027-03-10').length);
    expect(await sim.calls(omronUser)).toBe(2);
  });

  const dexcom = (as: TeamFixture['as'][keyof TeamFixture['as']], id: number, q = '') =>
    as.get(`/api/getDexcomParticipantData/${id}/egvs${q}`);

  it("a 59-day period is stitched from two ≤30-day windows: the generator's records, oldest first, each once", async () => {
    const { pid, dexcomUser } = await linked();
    const start = '2027-01-10T00:00:00';
    const end = '2027-03-10T00:00:00';
    const res = await dexcom(a.as.Viewer, pid, `?startDate=${start}&endDate=${end}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.requests).toBe(2);
    const want = dexcomEgvs(dexcomUser, Date.parse(`${start}Z`), Date.parse(`${end}Z`));
    expect(body.records.length).toBe(want.length);
    expect(body.records).toEqual(want);
    expect(body.records[0].unit).toBe('mg/dL');
    // The same records as one `egv` series across both windows: systemTime the instant, displayTime the local clock.
    expect(body.series).toHaveLength(1);
    expect(body.series[0]).toMatchObject({ metric: 'egv', unit: 'mg/dL', timeZone: null });
    expect(body.series[0].source.requests).toHaveLength(2);
    expect(
      body.series[0].points.map((p: { at: string; date: string; time: string; offsetMinutes: number }) => [
        Date.parse(p.at),
        `${p.date}T${p.time}`,
        p.offsetMinutes,
      ]),
    ).toEqual(
      want.map((w) => [
        Date.parse(w.systemTime),
        w.displayTime.slice(0, 19),
        parseOffset(w.displayTime.slice(19)),
      ]),
    );
    expect(
      body.series[0].points.map((p: { value: number | null; detail: object }) => [p.value, p.detail]),
    ).toEqual(
      want.map((w) => [
        w.value,
        {
          recordId: w.recordId,
          trend: w.trend,
          trendRate: w.trendRate,
          systemTime: w.systemTime,
          displayTime: w.displayTime,
        },
      ]),
    );
  });

  it('the default period is the last 7 days, one provider call', async () => {
    const { pid } = await linked();
    const res = await dexcom(a.as.Viewer, pid);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.requests).toBe(1);
    const from = Date.parse(NOW) - 7 * 86_400_000;
    expect(Date.parse(body.records[0].systemTime)).toBeGreaterThanOrEqual(from);
    expect(Date.parse(body.records.at(-1).systemTime)).toBeLessThanOrEqual(Date.parse(NOW));
    expect(body.records.length).toBeGreaterThan(7 * 288 * 0.9);
  });

  it("devices and dataRange: the provider's answer as is, one call, no window needed", async () => {
    const { pid } = await linked();
    const devices = (await a.as.Viewer.get(`/api/getDexcomParticipantData/${pid}/devices`)).json();
    expect(devices).toMatchObject({ resource: 'devices', requests: 1, timeZone: null });
    expect(devices.records[0]).toMatchObject({ transmitterGeneration: 'g7', displayApp: 'G7' });
    const range = (await a.as.Viewer.get(`/api/getDexcomParticipantData/${pid}/dataRange`)).json();
    expect(range).toMatchObject({ resource: 'dataRange', requests: 1, records: [] });
    expect(range.data).toMatchObject({ recordType: 'dataRange', egvs: { start: expect.any(Object) } });
  });

  it('an expired Dexcom token is refreshed once and the call retried', async () => {
    const { pid, dexcomUser } = await linked();
    const sim = simControl(t, 'dexcom');
    await sim.expire(dexcomUser);
    await sim.resetCalls();
    const res = await dexcom(a.as.Viewer, pid, '?startDate=2027-03-01T00:00:00&endDate=2027-03-01T02:00:00');
    expect(res.statusCode).toBe(200);
    expect(res.json().records).toEqual(
      dexcomEgvs(dexcomUser, Date.parse('2027-03-01T00:00:00Z'), Date.parse('2027-03-01T02:00:00Z')),
    );
    expect(await sim.calls(dexcomUser)).toBe(2);
  });

  it('a period over 90 days or reversed → 400 and no provider call; 429 → one call', async () => {
    const { pid, dexcomUser } = await linked();
    const sim = simControl(t, 'dexcom');
    await sim.resetCalls();
    expect(
      (await dexcom(a.as.Admin, pid, '?startDate=2026-11-01T00:00:00&endDate=2027-03-01T00:00:00'))
        .statusCode,
    ).toBe(400);
    expect(
      (await dexcom(a.as.Admin, pid, '?startDate=2027-03-02T00:00:00&endDate=2027-03-01T00:00:00'))
        .statusCode,
    ).toBe(400);
    expect((await a.as.Admin.get(`/api/getDexcomParticipantData/${pid}/bolus`)).statusCode).toBe(400);
    expect(await sim.calls(dexcomUser)).toBe(0);
    await sim.failNext(429, 3);
    try {
      const res = await dexcom(a.as.Admin, pid, '?startDate=2027-01-10T00:00:00&endDate=2027-03-10T00:00:00');
      expect(res.statusCode).toBe(429);
      expect(res.headers['retry-after']).toBe('60');
      expect(await sim.calls(dexcomUser)).toBe(1);
    } finally {
      // The failures left are the simulator's (every test's): none for the next test, even when this one fails.
      await sim.failNext(429, 0);
    }
  });

  it('raw Dexcom and Omron answers for Sys_Admin only', async () => {
    const { pid, dexcomUser } = await linked();
    const q = '?resource=egvs&startDate=2027-03-01T00:00:00&endDate=2027-03-01T01:00:00';
    expect((await a.as.Admin.get(`/api/participantRaw/${pid}/dexcom${q}`)).statusCode).toBe(403);
    const raw = (await a.as.Sys_Admin.get(`/api/participantRaw/${pid}/dexcom${q}`)).json();
    expect(raw).toMatchObject({
      provider: 'dexcom',
      status: 200,
      request: '/v3/users/self/egvs?startDate=2027-03-01T00%3A00%3A00&endDate=2027-03-01T01%3A00%3A00',
      body: {
        recordType: 'egv',
        records: dexcomEgvs(
          dexcomUser,
          Date.parse('2027-03-01T00:00:00Z'),
          Date.parse('2027-03-01T01:00:00Z'),
        ),
      },
    });
    const omronRaw = await a.as.Sys_Admin.get(
      `/api/participantRaw/${pid}/omron?resource=weight&since=2027-03-10`,
    );
    expect(omronRaw.statusCode).toBe(200);
    expect(omronRaw.json().body).toMatchObject({ status: 0, result: { weight: expect.any(Array) } });
    expect(
      (await a.as.Sys_Admin.get(`/api/participantRaw/${pid}/omron?resource=activity&since=2027-03-10`))
        .statusCode,
    ).toBe(400);
  });
});
