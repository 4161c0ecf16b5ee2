/*
 * A fake REDCap API (issue #25 item 3): REDCap is not open source, so the
 * portal's REDCap tests run against this, written from REDCap's API
 * documentation, never against a real server. One endpoint, `POST /api/`,
 * form-encoded, with `token`, `content`, `format`, `returnFormat`:
 * content=project, metadata, instrument, exportFieldNames, repeatingFormsEvents,
 * event, version, and
 * record (action=export with records[]/fields[]/forms[]/events[]; action=
 * import with data, overwriteBehavior, returnContent). As REDCap does,
 * errors are XML unless returnFormat=json, a token the server does not know
 * is 403 "You do not have permissions to use the API", and an import that
 * names unknown fields or breaks a rule is 400 and writes nothing. Only
 * format=json data is served (csv and xml are a 400 here, said plainly).
 *
 * The control API (/_control/…, only with `control: true`): create a
 * project with its dictionary, tokens and records, read its records back,
 * fail the next N API calls, count the calls.
 */
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  RedcapImportError,
  RedcapProject,
  type RedcapProjectSeed,
  type RedcapRow,
} from './redcap-project.js';

export interface RedcapSimulatorOptions {
  /** Mount the control API (/_control/...): development and tests only. */
  control?: boolean;
  /** Projects there from the start (the development server's demo project). */
  projects?: RedcapProjectSeed[];
}

export const REDCAP_SIM_PREFIX = '/sim/redcap';
export const REDCAP_VERSION = '14.5.0';
export const REDCAP_API_ERRORS = {
  noPermission: 'You do not have permissions to use the API',
  noImportRights: 'You do not have API Import/Update privileges',
  noExportRights: 'You do not have API Export privileges',
} as const;

const TOKEN_RE = /^[0-9A-F]{32}$/;

type Params = Record<string, string | string[] | undefined>;

/** A PHP-style array parameter: `fields[0]=a&fields[1]=b`, `fields[]=a`, or REDCap's comma-separated `fields=a,b`. */
export function arrayParam(body: Params, name: string): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(body)) {
    if (k !== name && !new RegExp(`^${name}\\[\\d*\\]$`).test(k)) continue;
    for (const item of Array.isArray(v) ? v : [v ?? ''])
      out.push(...(k === name ? item.split(',') : [item]).map((s) => s.trim()).filter(Boolean));
  }
  return out;
}

const one = (body: Params, name: string) => {
  const v = body[name];
  return Array.isArray(v) ? v[0] : v;
};

export async function redcapSimulator(app: FastifyInstance, opts: RedcapSimulatorOptions) {
  const projects = new Map<number, RedcapProject>();
  const tokens = new Map<string, { project: RedcapProject; export: boolean; import: boolean }>();
  let failNext = { count: 0, status: 500 };
  let calls = 0;
  let nextId = 1;
  const addProject = (seed: RedcapProjectSeed) => {
    const id = seed.project_id ?? nextId;
    nextId = Math.max(nextId, id) + 1;
    const project = new RedcapProject(seed, id);
    projects.set(id, project);
    for (const t of seed.tokens) {
      if (!TOKEN_RE.test(t.token)) throw new Error('a REDCap token is 32 hexadecimal digits, upper case');
      tokens.set(t.token, { project, export: t.export !== false, import: t.import !== false });
    }
    return project;
  };
  for (const seed of opts.projects ?? []) addProject(seed);

  await app.register(formbody);

  app.post('/api/', async (request, reply) => {
    calls++;
    const body = (request.body ?? {}) as Params;
    const json = one(body, 'returnFormat') === 'json';
    const fail = (status: number, message: string) => errorReply(reply, status, message, json);
    if (failNext.count > 0) {
      failNext.count--;
      return fail(failNext.status, 'The server is unable to process the request at this time');
    }
    const token = one(body, 'token') ?? '';
    const access = TOKEN_RE.test(token) ? tokens.get(token) : undefined;
    if (!access) return fail(403, REDCAP_API_ERRORS.noPermission);
    const { project } = access;
    const content = one(body, 'content') ?? '';
    const format = one(body, 'format') ?? 'xml';
    if (content === 'version') return reply.type('text/html; charset=utf-8').send(REDCAP_VERSION);
    if (format !== 'json')
      return fail(400, `This fake REDCap answers format=json only (format=${format} was asked)`);
    if (content === 'project') return project.projectInfo();
    if (content === 'metadata') {
      const fields = arrayParam(body, 'fields');
      const bad = notValid('fields', fields, project.fieldNames());
      if (bad) return fail(400, bad);
      return project.metadataRows(fields, arrayParam(body, 'forms'));
    }
    if (content === 'instrument') {
      const forms = [...new Set(project.metadata.map((f) => f.form_name))];
      return forms.map((form) => ({ instrument_name: form, instrument_label: form.replace(/_/g, ' ') }));
    }
    if (content === 'exportFieldNames') {
      const field = one(body, 'field');
      const names = [...project.fieldNames().keys()];
      if (field && !names.includes(field))
        return fail(400, `The field "${field}" does not exist in the project`);
      return names
        .filter((n) => !field || n === field)
        .map((n) => ({ original_field_name: n, choice_value: '', export_field_name: n }));
    }
    if (content === 'repeatingFormsEvents') {
      if (project.repeating.length === 0)
        return fail(400, 'You cannot export repeating instruments and events because the project has none');
      return project.repeating.map((r) => ({
        ...(project.longitudinal ? { event_name: r.event_name ?? '' } : {}),
        form_name: r.form_name,
        custom_form_label: r.custom_form_label ?? '',
      }));
    }
    if (content === 'event') {
      if (!project.longitudinal) return fail(400, 'You cannot export events for classic projects');
      return project.events.map((e) => ({
        ...e,
        day_offset: 0,
        offset_min: 0,
        offset_max: 0,
        custom_event_label: '',
      }));
    }
    if (content !== 'record') return fail(400, 'The value of the parameter "content" is not valid');

    const action = one(body, 'action') ?? 'export';
    const type = one(body, 'type') ?? 'flat';
    if (type !== 'flat') return fail(400, 'This fake REDCap answers type=flat only');
    if (action === 'export') {
      if (!access.export) return fail(403, REDCAP_API_ERRORS.noExportRights);
      const fields = arrayParam(body, 'fields');
      const forms = arrayParam(body, 'forms');
      const bad =
        notValid('fields', fields, project.fieldNames()) ??
        notValid('forms', forms, new Set(project.metadata.map((f) => f.form_name)));
      if (bad) return fail(400, bad);
      const events = arrayParam(body, 'events');
      if (events.length && !project.longitudinal)
        return fail(400, 'You cannot export events for classic projects');
      return project.exportRows({ records: arrayParam(body, 'records'), fields, forms, events });
    }
    if (action !== 'import') return fail(400, 'The value of the parameter "action" is not valid');
    if (!access.import) return fail(403, REDCAP_API_ERRORS.noImportRights);
    const overwrite = one(body, 'overwriteBehavior') ?? 'normal';
    if (overwrite !== 'normal' && overwrite !== 'overwrite')
      return fail(400, 'The value of the parameter "overwriteBehavior" is not valid');
    const dataText = one(body, 'data');
    if (!dataText) return fail(400, 'The parameter "data" is missing');
    let data: unknown;
    try {
      data = JSON.parse(dataText);
    } catch {
      return fail(400, 'The data being imported is not formatted correctly');
    }
    if (!Array.isArray(data) || data.some((r) => r === null || typeof r !== 'object' || Array.isArray(r)))
      return fail(400, 'The data being imported is not formatted correctly');
    let written: string[];
    try {
      written = project.importRows(data as RedcapRow[], overwrite);
    } catch (err) {
      if (err instanceof RedcapImportError) return fail(400, err.message);
      throw err;
    }
    const returnContent = one(body, 'returnContent') ?? 'count';
    if (returnContent === 'ids') return written;
    return { count: written.length };
  });

  if (opts.control !== true) return;
  app.post('/_control/projects', async (request, reply) => {
    try {
      const project = addProject(request.body as RedcapProjectSeed);
      return { project_id: project.id };
    } catch (err) {
      return reply.code(400).send({ error: (err as Error).message });
    }
  });
  app.get('/_control/projects/:id/records', async (request, reply) => {
    const project = projects.get(Number((request.params as { id: string }).id));
    if (!project) return reply.code(404).send({ error: 'no such project' });
    return project.exportRows({ records: [], fields: [], forms: [], events: [] });
  });
  app.post('/_control/fail-next', async (request) => {
    const b = request.body as { count?: number; status?: number };
    failNext = { count: b.count ?? 1, status: b.status ?? 500 };
    return { ok: true };
  });
  app.get('/_control/calls', async () => ({ calls }));
}

/** REDCap's refusal of names a parameter lists that the project does not have, or null. */
function notValid(param: string, names: string[], known: { has(name: string): boolean }) {
  const bad = names.filter((n) => !known.has(n));
  return bad.length
    ? `The following values in the parameter "${param}" are not valid: '${bad.join("', '")}'`
    : null;
}

/** REDCap's error body: `{"error": …}` with returnFormat=json, else its XML hash. */
function errorReply(reply: FastifyReply, status: number, message: string, json: boolean) {
  if (json) return reply.code(status).type('application/json; charset=utf-8').send({ error: message });
  const xml = message.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return reply
    .code(status)
    .type('text/xml; charset=utf-8')
    .send(`<?xml version="1.0" encoding="UTF-8" ?>\n<hash>\n  <error>${xml}</error>\n</hash>`);
}
