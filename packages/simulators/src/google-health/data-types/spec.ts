/*
 * What a Google Health data type is to the simulator: how it is recorded,
 * which scope reads it, what its calls allow, and how its points and
 * roll-ups are made. `catalogue.ts` lists the types.
 */
import type { GoogleHealthConfig } from '../gh-config.js';
import type { Person } from '../person.js';

export type RecordKind = 'interval' | 'sample' | 'daily' | 'session';
export type ScopeArea =
  | 'activity_and_fitness'
  | 'nutrition'
  | 'health_metrics_and_measurements'
  | 'sleep'
  | 'settings'
  | 'profile';
export type Source = 'tracker' | 'phone' | 'scale';

/** One data point before rendering. */
export interface Pt {
  /** Interval or session start, sample instant, or the local midnight of a daily point. */
  t: number;
  /** Interval or session end. */
  end?: number;
  /** The zone whose offsets the point carries. */
  tz: string;
  /** The local date the point belongs to (a sleep: its end date). */
  date: string;
  source: Source;
  /** Payload fields besides the time fields, in proto3 JSON (int64 as strings). */
  fields: Record<string, unknown>;
  /** The number roll-ups aggregate (count, mm, kcal cents, bpm, grams, percent). */
  n?: number;
  /** Duration types: the level the interval's time counts for. */
  level?: string;
  /** Identifiable types: the resource id (last segment of `name`). */
  id?: string;
  /** Cache of the civil time filters compare (points are memoized). */
  civil?: string;
}

/** One local date of one person: what a type's points are made from. */
export interface DayCtx {
  person: Person;
  date: string;
  tz: string;
  config: GoogleHealthConfig;
}

/** A roll-up input: a point and the share of it inside the window (1 unless it is a duration type cut by the window). */
export interface Share {
  pt: Pt;
  share: number;
}

export interface DataTypeSpec {
  id: string;
  record: RecordKind;
  scope: ScopeArea;
  /** list / reconcile / get (false: roll-ups only, "List is not supported …"). */
  list: (c: GoogleHealthConfig) => boolean;
  rollUp: (c: GoogleHealthConfig) => boolean;
  dailyRollUp: (c: GoogleHealthConfig) => boolean;
  /** Maximum roll-up range in days (proto: 14 for a few types, 90 for the others). */
  maxRollUpDays: 14 | 90;
  /** List page size default and maximum when not the general 1440/10000 (sleep, exercise: 25). */
  pageMax?: number;
  identifiable?: boolean;
  /** Interval points whose value is their duration (cut by roll-up windows). */
  durationValued?: boolean;
  points(c: DayCtx): Pt[];
  /** The roll-up value of the points in a window; undefined: no data (the key is left out). */
  aggregate?(items: Share[]): object | undefined;
  /** dailyRollUp of the daily types: the personal range up to the window's end. */
  personalRange?(person: Person, endDate: string): object | undefined;
}
