/* The column types the table types share (see index.ts). */
import type { ColumnType, Generated } from 'kysely';

export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type DateOnly = ColumnType<string, string | undefined, string>;
/** jsonb: read as parsed JSON, written as JSON text. */
export type Json = ColumnType<unknown, string, string>;
/** A column a trigger fills on insert (so inserts may leave it out, though it has no default). */
export type TriggerFilled<T> = Generated<T>;
