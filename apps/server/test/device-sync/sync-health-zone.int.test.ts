/*
 * Sync health's 'No data for 3 days' counts the participant's local days,
 * not the server's UTC days: a participant in Sydney (UTC+10 in late April,
 * a local date ahead of UTC's every evening UTC) and one in Los Angeles
 * (UTC-7, behind UTC every evening local). At the instants chosen, the UTC
 * date says the opposite of the local date, so counting UTC days fails here.
 * (The simulated Fitbit accounts live in six zones; Sydney and Los Angeles
 * are the farthest apart on either side of UTC.)
 */

import { fitbitDay, fitbitUserId, fitbitUserTimezone } from '@trialwear/simulators';
import { addDays } from '@trialwear/zone';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visibleTrials } from '../../src/access/index.js';
import { systemScope } from '../../src/access/system.js';
import { syncHealthOfTrials, trialParticipantsJson } from '../../src/features/participants/repo.js';
import { syncDevice } from '../../src/jobs/device-sync/sync-device.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { linkParticipant, simControl, trialWithParticipants } from '../support/linked-participant.js';
import { storeMetrics } from '../support/stored-metrics.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

const NOW = '2027-04-20T12:00:00Z'; // 22:00 on the 20th in Sydney, 05:00 on the 20th in Los Angeles
const clock = testClock(NOW);
/** The instant of a local date and time at a fixed offset (no DST change near these dates). */
const at = (date: string, time: string, offsetMinutes: number) =>
  new Date(Date.parse(`${date}T${time}:00Z`) - offsetMinutes * 60_000);

describe("sync health counts the participant's local days", () => {
  let t: TestApp;
  let a: TeamFixture;
  let trialId: number;

  beforeAll(async () => {
    t = await createTestApp({ listen: true, now: clock.now });
    a = await teamWithRoles(t, 'Zones', { hiddenFields: [] });
    await storeMetrics(a, 'Fitbit Sense', ['steps', 'resting_heart_rate']);
    ({ trialId } = await trialWithParticipants(a, 'Zones', []));
  });
  afterAll(() => t?.close());

  let candidates = 0;
  /** The test's start (NOW, here and at the simulator) and its own participant in the zone, linked and synced. */
  const syncedIn = async (zone: 'Australia/Sydney' | 'America/Los_Angeles') => {
    clock.set(NOW);
    await simControl(t, 'fitbit').clock(NOW);
    const clientId = t.ctx.providers.fitbit.settings.clientId;
    for (let i = 0; i < 100; i++) {
      candidates += 1;
      const pid = (
        await a.as.Admin.post('/api/trialParticipants', { trialId, email: `z${candidates}@x.example` })
      ).json().participantId as number;
      if (fitbitUserTimezone(fitbitUserId(`${clientId}:${pid}`)).tz !== zone) continue;
      const user = await linkParticipant(t, a, pid, 'fitbit');
      const { id } = await t.ctx.db
        .selectFrom('participant_devices')
        .select('id')
        .where('participant_id', '=', pid)
        .executeTakeFirstOrThrow();
      expect((await syncDevice(t.ctx, id)).status).toBe('synced');
      return { pid, deviceId: id, user };
    }
    throw new Error(`no participant in ${zone}`);
  };

  /** The device's state after the sync: its zone and the newest local day with data. */
  const state = (deviceId: number) =>
    t.ctx.db
      .selectFrom('device_sync_state')
      .select(['time_zone', 'last_data_date', 'days_with_data_7d'])
      .where('participant_device_id', '=', deviceId)
      .executeTakeFirstOrThrow();
  /** The participant's sync status at `now`, from both list queries (they must agree). */
  const statusAt = async (pid: number, now: Date) => {
    const team = (await syncHealthOfTrials(t.ctx.db, systemScope.allTrials('fixture', a.teamId), now)).get(
      pid,
    ) as {
      status: string;
    };
    const list = await trialParticipantsJson(t.ctx.db, {
      scope: visibleTrials({ teamId: a.teamId, userId: a.userIds.Admin, role: 'Admin' }),
      trialId,
      hidden: [],
      now: now.toISOString(),
    });
    const row = (JSON.parse(list!.participants) as Array<{ id: number; sync: { status: string } }>).find(
      (p) => p.id === pid,
    )!;
    expect(row.sync.status).toBe(team.status);
    return team.status;
  };

  it('Sydney (ahead of UTC): the third local day without data is flagged while UTC still counts two', async () => {
    const { pid, deviceId } = await syncedIn('Australia/Sydney');
    const s = await state(deviceId);
    expect(s.time_zone).toBe('Australia/Sydney');
    const last = s.last_data_date!;
    expect(last <= '2027-04-20').toBe(true);
    // Local L+3 06:00 is UTC L+2 20:00.
    expect(await statusAt(pid, at(addDays(last, 3), '06:00', 600))).toBe('stale');
    // Local L+2 23:00 (UTC L+2 13:00): two days, not yet.
    expect(await statusAt(pid, at(addDays(last, 2), '23:00', 600))).toBe('ok');
  });

  it('Los Angeles (behind UTC): not flagged on the second local evening although UTC is on the third day', async () => {
    const { pid, deviceId } = await syncedIn('America/Los_Angeles');
    const s = await state(deviceId);
    expect(s.time_zone).toBe('America/Los_Angeles');
    const last = s.last_data_date!;
    // Local L+2 20:00 is UTC L+3 03:00.
    expect(await statusAt(pid, at(addDays(last, 2), '20:00', -420))).toBe('ok');
    // Local L+3 01:00: three local days.
    expect(await statusAt(pid, at(addDays(last, 3), '01:00', -420))).toBe('stale');
  });

  it("the days of the last 7 with data end on the participant's local today", async () => {
    // A Sydney morning (UTC still the day before) whose local week and UTC week differ in days worn:
    // local [L-6, L], UTC [L-7, L-1].
    const { deviceId, user } = await syncedIn('Australia/Sydney');
    const worn = (d: string) => fitbitDay(user, d).worn;
    const count = (end: string) => Array.from({ length: 7 }, (_, i) => addDays(end, -i)).filter(worn).length;
    let local = '';
    for (let n = 1; n <= 20 && !local; n++) {
      const d = addDays('2027-04-20', n);
      if (worn(d) !== worn(addDays(d, -7))) local = d;
    }
    expect(local).not.toBe('');
    const when = at(local, '06:00', 600);
    clock.advance(when.getTime() - clock.now().getTime());
    await simControl(t, 'fitbit').clock(when.toISOString());
    expect((await syncDevice(t.ctx, deviceId)).status).toBe('synced');
    expect(count(local)).not.toBe(count(addDays(local, -1)));
    expect((await state(deviceId)).days_with_data_7d).toBe(count(local));
  });
});
