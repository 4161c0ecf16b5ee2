/*
 * The compliance report (issue #23 §7, decision 034): GET
 * /api/studyHealth/trials/{trialId}/report?format=csv|xlsx&from&to — the
 * page's table as a file. Its numbers are compared with the table API's for
 * the same range (not with constants: the two must agree); the XLSX is read
 * back from its sheet XML. Days, readings and alerts are hand-inserted rows,
 * as the sync and the rules' evaluation write them; the clock is fixed.
 */
import {
  STUDY_HEALTH_DEFINITIONS,
  STUDY_HEALTH_REPORT_ALERT_COLUMNS,
  STUDY_HEALTH_REPORT_DAY_COLUMNS,
  type StudyHealth,
} from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzip } from '../data-export/support/zip.js';
import { auditRows } from '../support/audit.js';
import {
  addParticipant,
  type HealthTeam,
  healthTeam,
  insertAlert,
  insertHealthDay,
  insertLink,
} from '../support/study-health.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

const clock = testClock('2026-03-10T05:00:00Z');

type Cell = string | number;

/** As the report (and the batch export) names a participant: its code, `#<id>` without one. */
const codeOf = (p: {
  participantId?: number;
  id?: number;
  participantCode?: string | null;
  code?: string | null;
}) => (p.participantCode ?? p.code) || `#${p.participantId ?? p.id}`;

/** One CSV line's cells (our CSV: quotes only around cells with a quote, comma or newline). */
function csvCells(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let v = '';
      i += 1;
      while (i < line.length) {
        if (line[i] === '"' && line[i + 1] === '"') {
          v += '"';
          i += 2;
        } else if (line[i] === '"') break;
        else v += line[i++];
      }
      out.push(v);
      i += 2; // the closing quote and the comma
    } else {
      const end = line.indexOf(',', i);
      out.push(line.slice(i, end === -1 ? line.length : end));
      i = end === -1 ? line.length + 1 : end + 1;
    }
  }
  return out;
}

const xmlText = (s: string) =>
  s
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&apos;', "'")
    .replaceAll('&amp;', '&');

/** The XLSX's sheets by name, each as rows of cells (numbers as numbers; a missing cell is ''). */
async function readXlsx(file: Buffer): Promise<Record<string, Cell[][]>> {
  const entries = new Map((await unzip(file)).map((e) => [e.name, e.data.toString('utf8')]));
  const shared = [...(entries.get('xl/sharedStrings.xml') ?? '').matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) =>
    xmlText([...m[1]!.matchAll(/<t[^>]*>([\s\S]*?)<\/t>/g)].map((t) => t[1]).join('')),
  );
  const names = [...entries.get('xl/workbook.xml')!.matchAll(/<sheet [^>]*name="([^"]+)"/g)].map((m) =>
    xmlText(m[1]!),
  );
  const out: Record<string, Cell[][]> = {};
  names.forEach((name, i) => {
    const xml = entries.get(`xl/worksheets/sheet${i + 1}.xml`)!;
    out[name] = [...xml.matchAll(/<row[^>]*>([\s\S]*?)<\/row>/g)].map((row) => {
      const cells: Cell[] = [];
      for (const c of row[1]!.matchAll(/<c r="([A-Z]+)\d+"([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
        const col = [...c[1]!].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
        const type = /t="(\w+)"/.exec(c[2]!)?.[1];
        const v = /<v>([\s\S]*?)<\/v>/.exec(c[3] ?? '')?.[1];
        const inline = /<t[^>]*>([\s\S]*?)<\/t>/.exec(c[3] ?? '')?.[1];
        while (cells.length < col) cells.push('');
        cells[col] =
          type === 's' ? shared[Number(v)]! : type === 'inlineStr' ? xmlText(inline ?? '') : Number(v);
      }
      return cells;
    });
  });
  return out;
}

describe('study health compliance report', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: clock.now });
  });
  afterAll(() => t.close());

  const reportUrl = (trialId: number, query: string) => `/api/studyHealth/trials/${trialId}/report${query}`;

  /** A trial with a Fitbit + Dexcom participant, an Omron one, one without a link; days, steps, alerts. */
  async function world(h: HealthTeam) {
    const teamId = h.team.teamId;
    const a = await addParticipant(t, h.team, h.trialId, 'a@report.example');
    const b = await addParticipant(t, h.team, h.trialId, 'b@report.example');
    const c = await addParticipant(t, h.team, h.trialId, 'c@report.example');
    const fitbit = await insertLink(t, teamId, a.id, { lastSyncAt: '2026-03-09T22:15:00Z', battery: 40 });
    const dexcom = await insertLink(t, teamId, a.id, {
      provider: 'dexcom',
      status: 'error',
      lastSyncAt: '2026-03-07T10:00:00Z',
    });
    const omron = await insertLink(t, teamId, b.id, {
      provider: 'omron',
      lastSyncAt: '2026-03-08T07:00:00Z',
    });
    const day = (deviceId: number, participantId: number, date: string, more: object) =>
      insertHealthDay(t, { deviceId, participantId, date, ...more });
    await day(fitbit, a.id, '2026-03-09', { wearMinutes: 840, metrics: ['steps', 'heart_rate'] });
    await day(dexcom, a.id, '2026-03-09', { cgmActivePercent: 82.5, metrics: ['glucose'] });
    await day(fitbit, a.id, '2026-03-08', { wearMinutes: 0 });
    await day(fitbit, a.id, '2026-03-07', { wearMinutes: null });
    await day(dexcom, a.id, '2026-03-06', { cgmActivePercent: 40.97 });
    await day(omron, b.id, '2026-03-05', { bpReadings: 2, metrics: ['blood_pressure'] });
    // Outside the range asked below.
    await day(fitbit, a.id, '2026-03-01', { wearMinutes: 600 });
    // Daily steps of a's tracker (one at the range's edge, one outside it).
    for (const [date, value] of [
      ['2026-03-09', 10432],
      ['2026-03-02', 5000],
      ['2026-03-01', 999],
    ] as const)
      await t.ctx.db
        .insertInto('device_readings')
        .values({
          participant_id: a.id,
          team_id: teamId,
          participant_device_id: fitbit,
          metric_key: 'steps',
          measured_at: `${date}T00:00:00Z`,
          local_date: date,
          value,
        })
        .execute();

    const base = { teamId, trialId: h.trialId };
    await insertAlert(t, {
      ...base,
      participantId: a.id,
      ruleKey: 'linkError',
      openedAt: '2026-03-07T11:00:00Z',
      detail: { status: 'error' },
    });
    await insertAlert(t, {
      ...base,
      participantId: b.id,
      ruleKey: 'noBpReading',
      openedAt: '2026-03-08T11:00:00Z',
      // A note written to run as a formula in a spreadsheet.
      acknowledged: {
        by: h.team.userIds.User,
        at: '2026-03-09T08:00:00Z',
        note: '=HYPERLINK("http://x.example","call")',
      },
    });
    await insertAlert(t, {
      ...base,
      participantId: a.id,
      ruleKey: 'lowBattery',
      openedAt: '2026-03-01T11:00:00Z',
      closedAt: '2026-03-02T11:00:00Z',
    });
    return { a, b, c };
  }

  const RANGE = '&from=2026-03-02&to=2026-03-09';

  it('CSV: one day row per participant × date with the table API’s numbers, one row per open alert', async () => {
    const h = await healthTeam(t);
    const { a, b } = await world(h);
    const table: StudyHealth = (
      await h.team.as.Admin.get(`/api/studyHealth/trials/${h.trialId}?${RANGE}`)
    ).json();

    const res = await h.team.as.User.get(reportUrl(h.trialId, `?format=csv${RANGE}`));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="TrialWear_study_health_trial${h.trialId}_2026-03-02_2026-03-09.csv"`,
    );
    expect([...res.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = res.rawPayload.toString('utf8').slice(1);
    expect(text.endsWith('\r\n')).toBe(true);
    const [head, ...rest] = text.slice(0, -2).split('\r\n').map(csvCells);
    expect(head).toEqual([
      'record_type',
      ...STUDY_HEALTH_REPORT_DAY_COLUMNS,
      'rule',
      'opened_at',
      'detail',
      'acknowledged_at',
      'acknowledged_by',
      'note',
    ]);
    const col = (name: string) => head!.indexOf(name);
    const days = rest.filter((r) => r[0] === 'day');
    const alerts = rest.filter((r) => r[0] === 'alert');
    expect(days.length + alerts.length).toBe(rest.length);

    // Every participant × every date of the range, in the table's participant order.
    const dates = ['02', '03', '04', '05', '06', '07', '08', '09'].map((d) => `2026-03-${d}`);
    expect(days.map((r) => [r[col('participant_code')], r[col('local_date')]])).toEqual(
      table.participants.flatMap((p) => dates.map((d) => [codeOf(p), d])),
    );
    const num = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(v));
    for (const p of table.participants)
      for (const date of dates) {
        const row = days.find(
          (r) => r[col('participant_code')] === codeOf(p) && r[col('local_date')] === date,
        )!;
        const d = p.days.find((x) => x.date === date);
        expect(
          {
            wear: row[col('wear_minutes')],
            cgm: row[col('cgm_active_percent')],
            bp: row[col('bp_readings')],
            metrics: row[col('metrics_present')],
            sync: row[col('last_sync_at')],
            battery: row[col('battery_level')],
            link: row[col('link_status')],
          },
          `${codeOf(p)} ${date}`,
        ).toEqual({
          wear: num(d?.wearMinutes),
          cgm: num(d?.cgmActivePercent),
          bp: num(d?.bpReadings),
          metrics: d ? d.metricsPresent.join(';') : '',
          sync: p.lastSyncAt ?? '',
          battery: num(p.batteryLevel),
          link: p.linkStatus,
        });
      }
    // The table has what the fixture stored (so the comparison above compared something).
    const aDays = days.filter((r) => r[col('participant_code')] === codeOf(a));
    expect(aDays.map((r) => r[col('wear_minutes')])).toEqual(['', '', '', '', '', '', '0', '840']);
    expect(aDays.map((r) => r[col('cgm_active_percent')])).toEqual(['', '', '', '', '40.97', '', '', '82.5']);
    expect(aDays.map((r) => r[col('steps')])).toEqual(['5000', '', '', '', '', '', '', '10432']);
    expect(aDays.at(-1)![col('metrics_present')]).toBe('glucose;heart_rate;steps');
    expect(aDays[0]![col('link_status')]).toBe('errored');
    const bDays = days.filter((r) => r[col('participant_code')] === codeOf(b));
    expect(bDays.map((r) => r[col('bp_readings')])).toEqual(['', '', '', '2', '', '', '', '']);

    // Open alerts: not the closed one; the acknowledged one with who, when and the note, neutralised.
    const pick = (r: string[]) =>
      ['participant_code', 'rule', 'opened_at', 'detail', 'acknowledged_at', 'acknowledged_by', 'note'].map(
        (c) => r[col(c)],
      );
    const user = await t.ctx.db
      .selectFrom('users')
      .select(['first_name', 'last_name'])
      .where('id', '=', h.team.userIds.User)
      .executeTakeFirstOrThrow();
    // The alerts list's order: not acknowledged first, then newest first.
    expect(alerts.map(pick)).toEqual([
      [codeOf(a), 'linkError', '2026-03-07T11:00:00.000Z', '{"status":"error"}', '', '', ''],
      [
        codeOf(b),
        'noBpReading',
        '2026-03-08T11:00:00.000Z',
        '',
        '2026-03-09T08:00:00.000Z',
        `${user.first_name} ${user.last_name}`.trim(),
        `'=HYPERLINK("http://x.example","call")`,
      ],
    ]);
    // No day cell's text starts like a formula either.
    for (const r of rest) for (const cell of r) expect(cell).not.toMatch(/^[=+\-@]/);
    // The raw line, as a spreadsheet reads it: the formula is quoted text.
    expect(text).toContain(`"'=HYPERLINK(""http://x.example"",""call"")"`);
  });

  it('XLSX: Days, Open alerts and Definitions sheets with the same numbers as the CSV', async () => {
    const h = await healthTeam(t);
    const { a } = await world(h);
    const csv = (await h.team.as.Admin.get(reportUrl(h.trialId, `?format=csv${RANGE}`))).rawPayload
      .toString('utf8')
      .slice(1, -2)
      .split('\r\n')
      .map(csvCells);
    const res = await h.team.as.Admin.get(reportUrl(h.trialId, `?format=xlsx${RANGE}`));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="TrialWear_study_health_trial${h.trialId}_2026-03-02_2026-03-09.xlsx"`,
    );
    const sheets = await readXlsx(res.rawPayload);
    expect(Object.keys(sheets)).toEqual(['Days', 'Open alerts', 'Definitions']);

    const [dayHead, ...days] = sheets.Days!;
    expect(dayHead).toEqual([...STUDY_HEALTH_REPORT_DAY_COLUMNS]);
    const csvHead = csv[0]!;
    const csvDays = csv.filter((r) => r[0] === 'day');
    // Cell for cell the CSV's day rows (numbers as numbers in the XLSX; empty cells empty).
    expect(days.length).toBe(csvDays.length);
    days.forEach((row, i) => {
      const expected = STUDY_HEALTH_REPORT_DAY_COLUMNS.map((c) => csvDays[i]![csvHead.indexOf(c)]!);
      expect(STUDY_HEALTH_REPORT_DAY_COLUMNS.map((_, j) => String(row[j] ?? ''))).toEqual(expected);
    });
    const aLast = days.filter((r) => r[0] === codeOf(a)).at(-1)!;
    expect(aLast.slice(0, 6)).toEqual([codeOf(a), '2026-03-09', 840, 82.5, '', 10432]);

    const [alertHead, ...alerts] = sheets['Open alerts']!;
    expect(alertHead).toEqual([...STUDY_HEALTH_REPORT_ALERT_COLUMNS]);
    expect(alerts.map((r) => r[1])).toEqual(['linkError', 'noBpReading']);
    // A text cell is text in the XLSX, never a formula: the note as written.
    expect(alerts[1]![6]).toBe('=HYPERLINK("http://x.example","call")');
    expect(Buffer.from(res.rawPayload).includes(Buffer.from('<f>'))).toBe(false);

    const [defHead, ...defs] = sheets.Definitions!;
    expect(defHead).toEqual(['column', 'name', 'unit', 'definition']);
    expect(defs.slice(0, 3)).toEqual(
      STUDY_HEALTH_DEFINITIONS.map((d) => [d.key, d.name, d.unit, d.description]),
    );
    expect(defs[3]![3]).toBe("2026-03-02 to 2026-03-09, local dates of the trial's zone UTC");
  });

  it('a download leaves an audit row; the default range is the table’s', async () => {
    const h = await healthTeam(t);
    await world(h);
    const res = await h.team.as.Admin.get(reportUrl(h.trialId, '?format=xlsx'));
    expect(res.statusCode, res.body).toBe(200);
    // The table's default: the trial zone's last 14 days.
    expect(res.headers['content-disposition']).toContain(`trial${h.trialId}_2026-02-25_2026-03-10.xlsx`);
    const rows = (
      await auditRows(t.ctx.db, 'study_health.report.downloaded', [
        'user_id',
        'team_id',
        'entity_type',
        'entity_id',
        'after',
      ])
    ).filter((r) => r.team_id === h.team.teamId);
    expect(rows).toEqual([
      {
        user_id: h.team.userIds.Admin,
        team_id: h.team.teamId,
        entity_type: 'trial',
        entity_id: String(h.trialId),
        after: {
          format: 'xlsx',
          from: '2026-02-25',
          to: '2026-03-10',
          participants: 3,
          dayRows: 42,
          alertRows: 2,
        },
      },
    ]);
  });
});
