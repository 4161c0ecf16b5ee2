/*
 * The fake REDCap's demo project, there from the start on a development
 * server (and in the browser journeys): a classic project with an
 * enrolment form (record id, email) and a repeating daily-summary
 * instrument, so that an Admin can try the REDCap section offline with the
 * token below.
 */
import type { RedcapProjectSeed } from './redcap-project.js';

export const REDCAP_DEMO_TOKEN = 'DE305D5475B4431BADB2EB6B9E546014';

export const REDCAP_DEMO_PROJECT: RedcapProjectSeed = {
  project_id: 1,
  project_title: 'TrialWear demo study',
  metadata: [
    { field_name: 'record_id', form_name: 'enrolment', field_type: 'text', field_label: 'Record ID' },
    {
      field_name: 'email',
      form_name: 'enrolment',
      field_type: 'text',
      field_label: 'Email',
      text_validation_type_or_show_slider_number: 'email',
      identifier: 'y',
    },
    {
      field_name: 'summary_date',
      form_name: 'wearable_daily',
      field_type: 'text',
      field_label: 'Date',
      text_validation_type_or_show_slider_number: 'date_ymd',
    },
    ...(['steps', 'resting_hr', 'sleep_min', 'wear_min'] as const).map((name) => ({
      field_name: name,
      form_name: 'wearable_daily',
      field_type: 'text',
      field_label: name,
      text_validation_type_or_show_slider_number: 'integer',
    })),
    {
      field_name: 'glucose_mean',
      form_name: 'wearable_daily',
      field_type: 'text',
      field_label: 'Mean glucose (mg/dL)',
      text_validation_type_or_show_slider_number: 'number',
    },
  ],
  repeating: [{ form_name: 'wearable_daily' }],
  tokens: [{ token: REDCAP_DEMO_TOKEN }],
  records: [
    { record_id: '101', email: 'redcap.101@example.org' },
    { record_id: '102', email: 'redcap.102@example.org' },
    { record_id: '103', email: '' },
  ],
};
