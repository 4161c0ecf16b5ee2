/*
 * The fake REDCap answers as REDCap's API documentation says: form-encoded
 * POST /api/, JSON with returnFormat=json (XML errors otherwise), 403 for a
 * token it does not know, 400 naming unknown fields, imports all or nothing,
 * repeating instruments and events as flat rows, {"count": N} of records.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDCAP_DEMO_PROJECT, REDCAP_DEMO_TOKEN } from './redcap-demo.js';
import { REDCAP_API_ERRORS, redcapSimulator } from './redcap-simulator.js';

const LONG_TOKEN = 'ABCDEF0123456789ABCDEF0123456789';
const READ_ONLY = '0123456789ABCDEF0123456789ABCDEF';

let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify();
  await app.register(redcapSimulator, { prefix: '/redcap', control: true, projects: [REDCAP_DEMO_PROJECT] });
  await app.ready();
  const longitudinal = await app.inject({
    method: 'POST',
    url: '/redcap/_control/projects',
    payload: {
      project_title: 'Longitudinal',
      is_longitudinal: true,
      metadata: [
        { field_name: 'pid', form_name: 'base', field_type: 'text', field_label: 'id' },
        { field_name: 'day', form_name: 'daily', field_type: 'text', field_label: 'd' },
      ],
      events: [{ event_name: 'Follow up', arm_num: 1, unique_event_name: 'follow_up_arm_1' }],
      repeating: [{ form_name: 'daily', event_name: 'follow_up_arm_1' }],
      tokens: [{ token: LONG_TOKEN }, { token: READ_ONLY, import: false }],
    },
  });
  expect(longitudinal.statusCode).toBe(200);
});
afterAll(() => app.close());

const call = (params: Record<string, string>) =>
  app.inject({
    method: 'POST',
    url: '/redcap/api/',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(params).toString(),
  });
const demo = (params: Record<string, string>) =>
  call({ token: REDCAP_DEMO_TOKEN, format: 'json', returnFormat: 'json', ...params });

describe('the fake REDCap API', () => {
  it('refuses a token it does not know with 403, in JSON or, without returnFormat=json, XML', async () => {
    const wrong = await call({
      token: 'F'.repeat(32),
      content: 'project',
      format: 'json',
      returnFormat: 'json',
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toEqual({ error: REDCAP_API_ERRORS.noPermission });
    const xml = await call({ token: 'nonsense', content: 'project', format: 'json' });
    expect(xml.statusCode).toBe(403);
    expect(xml.headers['content-type']).toContain('text/xml');
    expect(xml.body).toContain(`<error>${REDCAP_API_ERRORS.noPermission}</error>`);
  });

  it('answers the project, its metadata and its repeating instruments', async () => {
    const project = (await demo({ content: 'project' })).json();
    expect(project).toMatchObject({
      project_id: 1,
      is_longitudinal: 0,
      has_repeating_instruments_or_events: 1,
    });
    const metadata = (await demo({ content: 'metadata' })).json();
    expect(metadata[0]).toMatchObject({
      field_name: 'record_id',
      form_name: 'enrolment',
      field_type: 'text',
    });
    expect(metadata.map((f: { field_name: string }) => f.field_name)).toContain('steps');
    const forms = (await demo({ content: 'metadata', 'forms[0]': 'enrolment' })).json();
    expect(forms.map((f: { field_name: string }) => f.field_name)).toEqual(['record_id', 'email']);
    expect((await demo({ content: 'instrument' })).json()).toEqual([
      { instrument_name: 'enrolment', instrument_label: 'enrolment' },
      { instrument_name: 'wearable_daily', instrument_label: 'wearable daily' },
    ]);
    const names = (await demo({ content: 'exportFieldNames' })).json();
    expect(names).toContainEqual({
      original_field_name: 'wearable_daily_complete',
      choice_value: '',
      export_field_name: 'wearable_daily_complete',
    });
    expect((await demo({ content: 'repeatingFormsEvents' })).json()).toEqual([
      { form_name: 'wearable_daily', custom_form_label: '' },
    ]);
    const events = await demo({ content: 'event' });
    expect(events.statusCode).toBe(400);
    expect(events.json().error).toBe('You cannot export events for classic projects');
  });

  it('exports the chosen fields of records, the record id always, and refuses unknown fields with 400', async () => {
    const all = (await demo({ content: 'record', action: 'export', 'fields[0]': 'email' })).json() as Array<{
      record_id: string;
    }>;
    // The demo project's seeded records (the import test adds its own 9xx records to the same project).
    const rows = all.filter((r) => !r.record_id.startsWith('9'));
    expect(rows).toEqual([
      {
        record_id: '101',
        redcap_repeat_instrument: '',
        redcap_repeat_instance: '',
        email: 'redcap.101@example.org',
      },
      {
        record_id: '102',
        redcap_repeat_instrument: '',
        redcap_repeat_instance: '',
        email: 'redcap.102@example.org',
      },
      { record_id: '103', redcap_repeat_instrument: '', redcap_repeat_instance: '', email: '' },
    ]);
    const bad = await demo({ content: 'record', action: 'export', 'fields[0]': 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain("'nope'");
  });

  it('imports repeating instances, counts records, overwrites the same instance, refuses a bad import whole', async () => {
    const data = [
      {
        record_id: '900',
        redcap_repeat_instrument: 'wearable_daily',
        redcap_repeat_instance: 1,
        summary_date: '2027-01-01',
        steps: 100,
      },
      {
        record_id: '900',
        redcap_repeat_instrument: 'wearable_daily',
        redcap_repeat_instance: 2,
        summary_date: '2027-01-02',
        steps: 200,
      },
      {
        record_id: '901',
        redcap_repeat_instrument: 'wearable_daily',
        redcap_repeat_instance: 1,
        summary_date: '2027-01-01',
        steps: 5,
      },
    ];
    const params = {
      content: 'record',
      action: 'import',
      overwriteBehavior: 'overwrite',
      returnContent: 'count',
    };
    const first = await demo({ ...params, data: JSON.stringify(data) });
    expect(first.json()).toEqual({ count: 2 });
    await demo({ ...params, data: JSON.stringify([{ ...data[0], steps: '' }]) });
    const rows = (
      await demo({ content: 'record', action: 'export', 'records[0]': '900', 'fields[0]': 'steps' })
    ).json();
    expect(rows).toEqual([
      { record_id: '900', redcap_repeat_instrument: '', redcap_repeat_instance: '', steps: '' },
      {
        record_id: '900',
        redcap_repeat_instrument: 'wearable_daily',
        redcap_repeat_instance: '1',
        steps: '',
      },
      {
        record_id: '900',
        redcap_repeat_instrument: 'wearable_daily',
        redcap_repeat_instance: '2',
        steps: '200',
      },
    ]);
    const unknown = await demo({ ...params, data: JSON.stringify([{ ...data[1], steps: 1, stepz: 3 }]) });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toBe(
      'The following fields were not found in the project as real data fields: stepz',
    );
    const badDate = await demo({
      ...params,
      data: JSON.stringify([
        { ...data[1], steps: 999 },
        { ...data[2], summary_date: '01/02/2027' },
      ]),
    });
    expect(badDate.statusCode).toBe(400);
    expect(badDate.json().error).toContain(
      '"summary_date","01/02/2027","The value is not a valid date (Y-M-D)"',
    );
    const notRepeating = await demo({
      ...params,
      data: JSON.stringify([
        { record_id: '900', redcap_repeat_instrument: 'enrolment', redcap_repeat_instance: 1 },
      ]),
    });
    expect(notRepeating.statusCode).toBe(400);
    const after = (
      await demo({ content: 'record', action: 'export', 'records[0]': '900', 'fields[0]': 'steps' })
    ).json();
    expect(after).toEqual(rows);
  });

  it('needs redcap_event_name in a longitudinal project, and import rights', async () => {
    const row = { pid: '1', redcap_repeat_instrument: 'daily', redcap_repeat_instance: 1, day: 'x' };
    const params = { content: 'record', action: 'import', format: 'json', returnFormat: 'json' };
    const noEvent = await call({ ...params, token: LONG_TOKEN, data: JSON.stringify([row]) });
    expect(noEvent.statusCode).toBe(400);
    expect(noEvent.json().error).toContain('The event name is not valid');
    const ok = await call({
      ...params,
      token: LONG_TOKEN,
      data: JSON.stringify([{ ...row, redcap_event_name: 'follow_up_arm_1' }]),
    });
    expect(ok.json()).toEqual({ count: 1 });
    const readOnly = await call({ ...params, token: READ_ONLY, data: JSON.stringify([row]) });
    expect(readOnly.statusCode).toBe(403);
    expect(readOnly.json()).toEqual({ error: REDCAP_API_ERRORS.noImportRights });
  });
});
