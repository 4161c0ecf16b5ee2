/*
 * The only code that talks to a REDCap server (decision 048): REDCap's API
 * conventions — one form-encoded POST to the project's API URL with `token`,
 * `content`, `format=json` and `returnFormat=json` (errors come as XML
 * without it), arrays as `fields[0]=…` — answering data or a failure with
 * REDCap's own error text, never a throw. A failure that may pass (no
 * answer, 5xx, 429) is tried again twice with a growing pause; a 4xx (a
 * wrong token, a field REDCap does not know) is answered at once.
 */
import { REDCAP_MESSAGES } from '@trialwear/contract';
import { callJson } from '../../providers/http-json.js';

export interface RedcapConnection {
  apiUrl: string;
  token: string;
}

export type RedcapResult<T> =
  | { ok: true; data: T }
  | { ok: false; status: number; error: string; message: string; transient: boolean };

/** The pauses before the second and third try of a transient failure. */
export const REDCAP_RETRY_PAUSES_MS = [250, 1000];

export async function redcapCall<T>(
  conn: RedcapConnection,
  params: Record<string, string | readonly string[]>,
  pauses: readonly number[] = REDCAP_RETRY_PAUSES_MS,
): Promise<RedcapResult<T>> {
  const body = new URLSearchParams({ token: conn.token, format: 'json', returnFormat: 'json' });
  for (const [k, v] of Object.entries(params))
    if (typeof v === 'string') body.set(k, v);
    else for (const [i, item] of v.entries()) body.set(`${k}[${i}]`, item);
  for (let attempt = 0; ; attempt++) {
    const r = await callJson<T>(
      conn.apiUrl,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: body.toString(),
        redirect: 'error',
      },
      (b) => {
        const error =
          b && typeof b === 'object' && typeof (b as { error?: unknown }).error === 'string'
            ? (b as { error: string }).error
            : '';
        return { errorType: 'redcap', message: error };
      },
    );
    if (r.ok) return { ok: true, data: r.data };
    const transient = r.status === 0 || r.status === 429 || r.status >= 500;
    if (transient && attempt < pauses.length) {
      await new Promise((resolve) => setTimeout(resolve, pauses[attempt]));
      continue;
    }
    return { ok: false, status: r.status, error: r.message, message: describe(r), transient };
  }
}

/** What the Admin reads: REDCap's own error with its status, or why there was no answer. */
function describe(r: { status: number; errorType: string; message: string }) {
  if (r.status === 0) return REDCAP_MESSAGES.unreachable(r.message);
  if (r.errorType === 'parse' || !r.message) return `${REDCAP_MESSAGES.unexpected} (HTTP ${r.status})`;
  return REDCAP_MESSAGES.refused(r.status, r.message);
}

export interface RedcapProjectInfo {
  project_id: number;
  project_title: string;
  is_longitudinal: number | string;
  has_repeating_instruments_or_events: number | string;
}

export interface RedcapMetadataField {
  field_name: string;
  form_name: string;
  field_type: string;
  text_validation_type_or_show_slider_number?: string;
}

export type RedcapRecordRow = Record<string, string>;

export const redcap = {
  project: (c: RedcapConnection) => redcapCall<RedcapProjectInfo>(c, { content: 'project' }),
  metadata: (c: RedcapConnection) => redcapCall<RedcapMetadataField[]>(c, { content: 'metadata' }),
  repeatingForms: (c: RedcapConnection) =>
    redcapCall<{ form_name: string; event_name?: string }[]>(c, { content: 'repeatingFormsEvents' }),
  events: (c: RedcapConnection) => redcapCall<{ unique_event_name: string }[]>(c, { content: 'event' }),
  exportRecords: (
    c: RedcapConnection,
    opts: { fields: readonly string[]; records?: readonly string[]; events?: readonly string[] },
  ) =>
    redcapCall<RedcapRecordRow[]>(c, {
      content: 'record',
      action: 'export',
      type: 'flat',
      fields: opts.fields,
      ...(opts.records?.length ? { records: opts.records } : {}),
      ...(opts.events?.length ? { events: opts.events } : {}),
    }),
  importRecords: (c: RedcapConnection, rows: readonly Record<string, string | number>[]) =>
    redcapCall<{ count: number }>(c, {
      content: 'record',
      action: 'import',
      type: 'flat',
      overwriteBehavior: 'overwrite',
      returnContent: 'count',
      data: JSON.stringify(rows),
    }),
};
