/** Batch data export: the page comes through the page registry; its formatting helpers for other pages. */
export { JOB_STATUS_LABELS, jobSizeText, localDateTime } from './export-format';
