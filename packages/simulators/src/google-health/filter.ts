/*
 * AIP-160 filters of dataPoints.list / reconcile (google-health-api.md
 * §3.3), strictly: only the members of the data type's record kind, only
 * `>=` and `<`, upper-case `AND` (and `OR` for sleep only), quoted
 * literals of the member's kind (RFC 3339 instants for physical members,
 * `YYYY-MM-DD[THH:mm:ss]` without offset for civil ones, dates for daily
 * types), each refusal with the reason the live API gives.
 */
import { addDays, utcDate } from '@trialwear/zone';
import { snakeOf } from './data-types/catalogue.js';
import { civilOf, physicalOf } from './data-types/points-of-date.js';
import type { DataTypeSpec, Pt } from './data-types/spec.js';
import { GoogleApiError } from './gh-json.js';

type MemberKind = 'physical' | 'civil' | 'date';
interface Restriction {
  member: string;
  kind: MemberKind;
  op: '>=' | '<';
  /** Physical: ms; civil: `YYYY-MM-DDTHH:mm:ss`; date: `YYYY-MM-DD`. */
  value: number | string;
}
/** AND of ORs (AIP-160: OR binds tighter than AND). */
export interface Filter {
  clauses: Restriction[][];
}

/** The members a data type can be filtered on, and their kinds. */
export function membersOf(spec: DataTypeSpec): Record<string, MemberKind> {
  const t = snakeOf(spec.id);
  if (spec.id === 'sleep')
    return { [`${t}.interval.end_time`]: 'physical', [`${t}.interval.civil_end_time`]: 'civil' };
  if (spec.record === 'session') return { [`${t}.interval.civil_start_time`]: 'civil' };
  if (spec.record === 'daily') return { [`${t}.date`]: 'date' };
  if (spec.record === 'sample')
    return { [`${t}.sample_time.physical_time`]: 'physical', [`${t}.sample_time.civil_time`]: 'civil' };
  return { [`${t}.interval.start_time`]: 'physical', [`${t}.interval.civil_start_time`]: 'civil' };
}

const fail = (reason: string, message: string) => new GoogleApiError(400, message, reason);

type Token = { kind: 'ident' | 'op' | 'string' | 'lparen' | 'rparen' | 'bare'; text: string };

function tokenize(filter: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < filter.length) {
    const c = filter[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '"') {
      const j = filter.indexOf('"', i + 1);
      if (j < 0)
        throw fail(
          'INVALID_DATA_POINT_FILTER_UNEXPECTED_END_OF_INPUT',
          'Invalid filter: unterminated string literal.',
        );
      out.push({ kind: 'string', text: filter.slice(i + 1, j) });
      i = j + 1;
      continue;
    }
    const op = filter.slice(i).match(/^(>=|<=|!=|>|<|=|:)/);
    if (op) {
      out.push({ kind: 'op', text: op[1]! });
      i += op[1]!.length;
      continue;
    }
    if (c === '(' || c === ')') {
      out.push({ kind: c === '(' ? 'lparen' : 'rparen', text: c });
      i++;
      continue;
    }
    const word = filter.slice(i).match(/^[^\s"()<>=!:]+/)![0];
    out.push({ kind: /^[A-Za-z_][A-Za-z0-9_.]*$/.test(word) ? 'ident' : 'bare', text: word });
    i += word.length;
  }
  return out;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const CIVIL = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function literal(kind: MemberKind, member: string, text: string): number | string {
  if (kind === 'physical') {
    const t = Date.parse(text);
    if (!RFC3339.test(text) || Number.isNaN(t))
      throw fail(
        'INVALID_FILTER_FORMAT',
        `Invalid filter: the value of '${member}' must be an RFC 3339 timestamp with an offset, e.g. "2026-05-01T00:00:00Z".`,
      );
    return t;
  }
  const ok = kind === 'date' ? DATE.test(text) : CIVIL.test(text);
  if (!ok || Number.isNaN(Date.parse(`${text.slice(0, 10)}T00:00:00Z`)))
    throw fail(
      'INVALID_DATA_POINT_FILTER_CIVIL_DATE_TIME_FORMAT',
      `Invalid filter: the value of '${member}' must be a civil ${kind === 'date' ? 'date "YYYY-MM-DD"' : 'date-time "YYYY-MM-DDTHH:mm:ss" without an offset'}.`,
    );
  if (kind === 'date') return text;
  // YYYY-MM-DD → T00:00:00; THH:mm → THH:mm:00.
  const [d, time = '00:00:00'] = text.split('T');
  return `${d}T${time.length === 5 ? `${time}:00` : time.slice(0, 8)}`;
}

/** Parse a filter for a data type; throws GoogleApiError(400) with the live API's reason. */
export function parseFilter(spec: DataTypeSpec, filter: string): Filter {
  const members = membersOf(spec);
  const snake = snakeOf(spec.id);
  const tokens = tokenize(filter);
  if (tokens.length === 0) return { clauses: [] };
  let i = 0;
  const restriction = (): Restriction => {
    const m = tokens[i++];
    if (!m)
      throw fail(
        'INVALID_DATA_POINT_FILTER_UNEXPECTED_END_OF_INPUT',
        'Invalid filter: unexpected end of input.',
      );
    if (m.kind !== 'ident')
      throw fail(
        'INVALID_DATA_POINT_FILTER_UNEXPECTED_TOKEN',
        `Invalid filter: unexpected token '${m.text}'.`,
      );
    const kind = members[m.text];
    if (!kind) {
      const [head] = m.text.split('.');
      if (/[A-Z]/.test(m.text))
        throw fail('INVALID_DATA_POINT_FILTER', `Invalid filter: '${m.text}' is not a valid member.`);
      if (head !== snake)
        throw fail(
          'INVALID_DATA_POINT_FILTER_DATA_TYPE_RESTRICTION',
          `Invalid filter: the restriction on '${m.text}' does not match the data type '${spec.id}'.`,
        );
      // As observed: "Member 'sleep.start_time' is not supported for filtering."
      const shown = m.text.replace(/\.(interval|sample_time)\./, '.');
      throw fail(
        'INVALID_DATA_POINT_FILTER_DATA_TYPE_MEMBER',
        `Member '${shown}' is not supported for filtering.`,
      );
    }
    const op = tokens[i++];
    if (!op)
      throw fail(
        'INVALID_DATA_POINT_FILTER_UNEXPECTED_END_OF_INPUT',
        'Invalid filter: unexpected end of input.',
      );
    if (op.kind !== 'op')
      throw fail(
        'INVALID_DATA_POINT_FILTER_MISSING_TOKEN',
        `Invalid filter: expected a comparator after '${m.text}'.`,
      );
    if (op.text !== '>=' && op.text !== '<')
      throw fail(
        'INVALID_DATA_POINT_FILTER_RESTRICTION_COMPARABLE',
        `Invalid filter: comparator '${op.text}' is not supported for '${m.text}'; use >= and <.`,
      );
    const v = tokens[i++];
    if (!v)
      throw fail(
        'INVALID_DATA_POINT_FILTER_UNEXPECTED_END_OF_INPUT',
        'Invalid filter: unexpected end of input.',
      );
    if (v.kind !== 'string')
      throw fail(
        'INVALID_DATA_POINT_FILTER_UNEXPECTED_TOKEN',
        `Invalid filter: expected a quoted value, got '${v.text}'.`,
      );
    return { member: m.text, kind, op: op.text, value: literal(kind, m.text, v.text) };
  };
  const disjunction = (): Restriction[] => {
    const out = [restriction()];
    while (tokens[i]?.kind === 'ident' && tokens[i]!.text === 'OR') {
      if (spec.id !== 'sleep')
        throw fail(
          'INVALID_DATA_POINT_FILTER_EXPRESSION_STRUCTURE',
          `Invalid filter: OR is not supported for data type '${spec.id}'.`,
        );
      i++;
      out.push(restriction());
    }
    return out;
  };
  const clauses = [disjunction()];
  while (i < tokens.length) {
    const t = tokens[i]!;
    if (t.kind === 'ident' && t.text === 'AND') {
      i++;
      clauses.push(disjunction());
      continue;
    }
    // Lower-case `and`, parentheses, anything else.
    throw fail('INVALID_DATA_POINT_FILTER_SYNTAX', `Invalid filter: unexpected '${t.text}'.`);
  }
  return { clauses };
}

function test(spec: DataTypeSpec, r: Restriction, p: Pt): boolean {
  const v = r.kind === 'physical' ? physicalOf(spec, p) : r.kind === 'date' ? p.date : civilOf(spec, p);
  return r.op === '>=' ? v >= r.value : v < r.value;
}

export function matches(spec: DataTypeSpec, f: Filter, p: Pt): boolean {
  return f.clauses.every((c) => c.some((r) => test(spec, r, p)));
}

/**
 * The local dates whose points a filter can match, as [first, last]
 * (inclusive), from its single-restriction clauses, widened by a day on
 * each side: physical bounds for any offset, and points dated by another
 * day than their time (a night's SpO2 samples begin the evening before).
 */
export function dateBounds(f: Filter): { from?: string; to?: string } {
  let from: string | undefined;
  let to: string | undefined;
  const day = (ms: number, n: number) => addDays(utcDate(ms), n);
  for (const c of f.clauses) {
    if (c.length !== 1) continue;
    const r = c[0]!;
    const ms =
      r.kind === 'physical'
        ? (r.value as number)
        : Date.parse(`${(r.value as string).slice(0, 10)}T00:00:00Z`);
    const d = day(ms, r.op === '>=' ? -1 : 1);
    if (r.op === '>=') from = from === undefined || d > from ? d : from;
    else to = to === undefined || d < to ? d : to;
  }
  return { ...(from && { from }), ...(to && { to }) };
}
