/*
 * One fake REDCap project: its data dictionary, repeating instruments,
 * events and records, and the rules REDCap applies to an import, written
 * from REDCap's API documentation (the API playground's descriptions of
 * content=project, metadata, repeatingFormsEvents, event, record export and
 * import). Records are stored as REDCap stores them: per record, one row of
 * its non-repeating fields (per event in a longitudinal project) and one row
 * per instance of a repeating instrument, every value a string.
 */

export interface RedcapField {
  field_name: string;
  form_name: string;
  field_type: string;
  field_label: string;
  /** e.g. 'date_ymd', 'integer', 'number', 'email'; '' for none. */
  text_validation_type_or_show_slider_number?: string;
  select_choices_or_calculations?: string;
  required_field?: '' | 'y';
  identifier?: '' | 'y';
}

export interface RedcapEvent {
  event_name: string;
  arm_num: number;
  unique_event_name: string;
}

export interface RedcapProjectSeed {
  project_id?: number;
  project_title: string;
  is_longitudinal?: boolean;
  /** The data dictionary in order; the first field is the record id field (as in REDCap). */
  metadata: RedcapField[];
  /** Repeating instruments (form_name), per event in a longitudinal project. */
  repeating?: { form_name: string; event_name?: string; custom_form_label?: string }[];
  events?: RedcapEvent[];
  /** API tokens of this project and the rights of their users. */
  tokens: { token: string; export?: boolean; import?: boolean }[];
  /** Records in REDCap's flat export form (see RedcapRow). */
  records?: RedcapRow[];
}

/** A flat row as REDCap exports and imports it (every value a string on the way out). */
export type RedcapRow = Record<string, string | number | null>;

export class RedcapImportError extends Error {}

const DATE_YMD = /^\d{4}-\d{2}-\d{2}$/;

/** REDCap's field validations this fake knows (the ones a summary uses). */
function invalidValue(field: RedcapField, value: string): string | null {
  if (value === '') return null;
  const v = field.text_validation_type_or_show_slider_number ?? '';
  if (v === 'date_ymd' && (!DATE_YMD.test(value) || Number.isNaN(Date.parse(value))))
    return 'The value is not a valid date (Y-M-D)';
  if (v === 'integer' && !/^-?\d+$/.test(value)) return 'The value is not an integer';
  if (v === 'number' && !/^-?\d+(\.\d+)?$/.test(value)) return 'The value is not a number';
  if (v === 'email' && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value)) return 'The value is not a valid email';
  return null;
}

const keyOf = (record: string, event: string, instrument: string, instance: string) =>
  JSON.stringify([record, event, instrument, instance]);

export class RedcapProject {
  readonly id: number;
  readonly title: string;
  readonly longitudinal: boolean;
  readonly metadata: RedcapField[];
  readonly repeating: NonNullable<RedcapProjectSeed['repeating']>;
  readonly events: RedcapEvent[];
  readonly createdAt = new Date().toISOString().replace('T', ' ').slice(0, 19);
  /** keyOf(record, event, instrument, instance) → values of that row (fields only). */
  private rows = new Map<string, Record<string, string>>();

  constructor(seed: RedcapProjectSeed, id: number) {
    if (seed.metadata.length === 0) throw new Error('a project has at least its record id field');
    this.id = id;
    this.title = seed.project_title;
    this.longitudinal = seed.is_longitudinal === true;
    this.metadata = seed.metadata;
    this.repeating = seed.repeating ?? [];
    this.events = this.longitudinal ? (seed.events ?? []) : [];
    if (seed.records?.length) this.importRows(seed.records, 'overwrite');
  }

  get recordIdField() {
    return this.metadata[0]!.field_name;
  }

  /** Field names REDCap accepts in data: the dictionary's plus each form's `<form>_complete`. */
  fieldNames(): Map<string, string> {
    const names = new Map(this.metadata.map((f) => [f.field_name, f.form_name]));
    for (const form of new Set(this.metadata.map((f) => f.form_name))) names.set(`${form}_complete`, form);
    return names;
  }

  isRepeating(form: string, event: string) {
    return this.repeating.some((r) => r.form_name === form && (!this.longitudinal || r.event_name === event));
  }

  projectInfo() {
    return {
      project_id: this.id,
      project_title: this.title,
      creation_time: this.createdAt,
      production_time: '',
      in_production: 0,
      project_language: 'English',
      purpose: 1,
      purpose_other: '',
      project_notes: '',
      custom_record_label: '',
      secondary_unique_field: '',
      is_longitudinal: this.longitudinal ? 1 : 0,
      has_repeating_instruments_or_events: this.repeating.length > 0 ? 1 : 0,
      surveys_enabled: 0,
      scheduling_enabled: 0,
      record_autonumbering_enabled: 0,
      randomization_enabled: 0,
      ddp_enabled: 0,
      project_irb_number: '',
      project_grant_number: '',
      project_pi_firstname: '',
      project_pi_lastname: '',
      display_today_now_button: 1,
      missing_data_codes: '',
      external_modules: '',
      bypass_branching_erase_field_prompt: 0,
    };
  }

  metadataRows(fields: string[], forms: string[]) {
    return this.metadata
      .filter(
        (f) =>
          (fields.length === 0 && forms.length === 0) ||
          fields.includes(f.field_name) ||
          forms.includes(f.form_name),
      )
      .map((f) => ({
        field_name: f.field_name,
        form_name: f.form_name,
        section_header: '',
        field_type: f.field_type,
        field_label: f.field_label,
        select_choices_or_calculations: f.select_choices_or_calculations ?? '',
        field_note: '',
        text_validation_type_or_show_slider_number: f.text_validation_type_or_show_slider_number ?? '',
        text_validation_min: '',
        text_validation_max: '',
        identifier: f.identifier ?? '',
        branching_logic: '',
        required_field: f.required_field ?? '',
        custom_alignment: '',
        question_number: '',
        matrix_group_name: '',
        matrix_ranking: '',
        field_annotation: '',
      }));
  }

  /**
   * content=record, action=import, type=flat. Checks every row before writing
   * any (REDCap refuses the whole import on an error); answers the number of
   * distinct records written (returnContent=count) and their names (ids).
   */
  importRows(data: RedcapRow[], overwriteBehavior: 'normal' | 'overwrite'): string[] {
    const names = this.fieldNames();
    const idField = this.recordIdField;
    const specials = new Set(['redcap_repeat_instrument', 'redcap_repeat_instance', 'redcap_event_name']);
    const unknown = new Set<string>();
    for (const row of data)
      for (const k of Object.keys(row)) if (!names.has(k) && !specials.has(k)) unknown.add(k);
    if (unknown.size)
      throw new RedcapImportError(
        `The following fields were not found in the project as real data fields: ${[...unknown].join(', ')}`,
      );
    const problems: string[] = [];
    const planned: { key: string; values: Record<string, string>; record: string }[] = [];
    const byName = new Map(this.metadata.map((f) => [f.field_name, f]));
    for (const row of data) {
      const record = String(row[idField] ?? '').trim();
      if (record === '') {
        problems.push(`"","${idField}","","The record ID field is missing or blank"`);
        continue;
      }
      const event = String(row.redcap_event_name ?? '');
      if (this.longitudinal && !this.events.some((e) => e.unique_event_name === event)) {
        problems.push(`"${record}","redcap_event_name","${event}","The event name is not valid"`);
        continue;
      }
      if (!this.longitudinal && event !== '') {
        problems.push(
          `"${record}","redcap_event_name","${event}","This project is not longitudinal: redcap_event_name cannot be imported"`,
        );
        continue;
      }
      const instrument = String(row.redcap_repeat_instrument ?? '');
      const instanceText = String(row.redcap_repeat_instance ?? '');
      if (instrument !== '' && !this.isRepeating(instrument, event)) {
        problems.push(
          `"${record}","redcap_repeat_instrument","${instrument}","The instrument is not a repeating instrument${this.longitudinal ? ' in this event' : ''}"`,
        );
        continue;
      }
      if (instrument !== '' && !/^[1-9]\d*$/.test(instanceText)) {
        problems.push(
          `"${record}","redcap_repeat_instance","${instanceText}","The repeat instance must be a whole number greater than 0"`,
        );
        continue;
      }
      const values: Record<string, string> = {};
      for (const [k, raw] of Object.entries(row)) {
        if (specials.has(k) || k === idField) continue;
        const value = raw === null || raw === undefined ? '' : String(raw);
        const form = names.get(k)!;
        if (instrument !== '' && form !== instrument) {
          problems.push(
            `"${record}","${k}","${value}","The field is not on the repeating instrument '${instrument}'"`,
          );
          continue;
        }
        if (instrument === '' && this.isRepeating(form, event) && value !== '') {
          problems.push(
            `"${record}","${k}","${value}","The field is on a repeating instrument: redcap_repeat_instrument and redcap_repeat_instance are required"`,
          );
          continue;
        }
        const field = byName.get(k);
        const bad = field ? invalidValue(field, value) : null;
        if (bad) problems.push(`"${record}","${k}","${value}","${bad}"`);
        values[k] = value;
      }
      planned.push({ key: keyOf(record, event, instrument, instrument ? instanceText : ''), values, record });
    }
    if (problems.length) throw new RedcapImportError(problems.join('\n'));
    for (const p of planned) {
      const record = JSON.parse(p.key)[0] as string;
      // A record exists from its first row; the base row is what REDCap keeps the record id on.
      const base = keyOf(record, JSON.parse(p.key)[1], '', '');
      if (!this.rows.has(base)) this.rows.set(base, {});
      const stored = this.rows.get(p.key) ?? {};
      for (const [k, v] of Object.entries(p.values))
        if (overwriteBehavior === 'overwrite' || v !== '') stored[k] = v;
      this.rows.set(p.key, stored);
    }
    return [...new Set(planned.map((p) => p.record))];
  }

  /**
   * content=record, action=export, type=flat: per record, its base row and
   * one row per repeating instance, each with every exported field (''
   * where it has none). The record id field is always exported.
   */
  exportRows(opts: { records: string[]; fields: string[]; forms: string[]; events: string[] }): RedcapRow[] {
    const names = this.fieldNames();
    const idField = this.recordIdField;
    const all = [...names.keys()];
    const chosen =
      opts.fields.length === 0 && opts.forms.length === 0
        ? all
        : all.filter((f) => opts.fields.includes(f) || opts.forms.includes(names.get(f)!));
    const exported = [idField, ...chosen.filter((f) => f !== idField)];
    const forms = new Set(exported.filter((f) => f !== idField).map((f) => names.get(f)!));
    const hasRepeating = this.repeating.length > 0;
    const keys = [...this.rows.keys()].map((k) => JSON.parse(k) as [string, string, string, string]);
    keys.sort(
      (a, b) =>
        compareRecord(a[0], b[0]) ||
        this.eventIndex(a[1]) - this.eventIndex(b[1]) ||
        a[2].localeCompare(b[2]) ||
        Number(a[3] || 0) - Number(b[3] || 0),
    );
    const out: RedcapRow[] = [];
    for (const [record, event, instrument, instance] of keys) {
      if (opts.records.length && !opts.records.includes(record)) continue;
      if (opts.events.length && !opts.events.includes(event)) continue;
      if (instrument !== '' && !forms.has(instrument)) continue;
      const stored = this.rows.get(keyOf(record, event, instrument, instance))!;
      const row: RedcapRow = { [idField]: record };
      if (this.longitudinal) row.redcap_event_name = event;
      if (hasRepeating) {
        row.redcap_repeat_instrument = instrument;
        row.redcap_repeat_instance = instance;
      }
      for (const f of exported) if (f !== idField) row[f] = stored[f] ?? '';
      out.push(row);
    }
    return out;
  }

  private eventIndex(event: string) {
    return this.events.findIndex((e) => e.unique_event_name === event);
  }
}

/** REDCap lists records in natural order (2 before 10). */
function compareRecord(a: string, b: string) {
  return a.localeCompare(b, 'en', { numeric: true });
}
