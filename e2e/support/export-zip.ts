/*
 * A downloaded export ZIP read in a journey, with the system's unzip
 * (Info-ZIP): its member names, a member's text, a data CSV's lines.
 */
import { execFileSync } from 'node:child_process';

/** The first columns of every data CSV, in the order. */
export const DATA_CSV_HEADER =
  'participant_code,metric_key,local_date,local_time,utc_offset,measured_at_utc,value,unit';

export const zipNames = (zipPath: string): string[] =>
  execFileSync('unzip', ['-Z1', zipPath], { encoding: 'utf8' }).trim().split('\n');

export const zipText = (zipPath: string, name: string): string =>
  execFileSync('unzip', ['-p', zipPath, name], { encoding: 'utf8' });

/** A member's bytes (a Parquet file). */
export const zipBytes = (zipPath: string, name: string): Buffer =>
  execFileSync('unzip', ['-p', zipPath, name], { maxBuffer: 256 * 1024 * 1024 });

/** A CSV member's lines, header first, without the BOM and the quotes (the journeys' values hold no comma). */
export const csvLines = (zipPath: string, name: string): string[] =>
  zipText(zipPath, name)
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/)
    .map((l) => l.replace(/"/g, ''));

/** The data CSV of a metric (one per metric in 'Separate tabs' mode). */
export const metricCsv = (names: readonly string[], metric: string): string | undefined =>
  names.find((n) => n.endsWith('.csv') && n.includes(metric) && !n.includes('dictionary'));
