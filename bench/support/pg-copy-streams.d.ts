// The part of pg-copy-streams' API the ingest bench uses (the package ships no types).
declare module 'pg-copy-streams' {
  import type { Writable } from 'node:stream';
  import type { Submittable } from 'pg';

  export function from(text: string): Writable & Submittable;
}
