/*
 * The settled outcome of one archive entry (CSV or Parquet data file).
 */
/** An entry's outcome, settled by its producer once the last byte has gone (observed: never unhandled). */
export interface EntryResult {
  rows: number;
  sha256: string;
  bytes: number;
}

export function entryResult(): {
  result: Promise<EntryResult>;
  resolve: (r: EntryResult) => void;
  reject: (err: unknown) => void;
} {
  let resolve!: (r: EntryResult) => void;
  let reject!: (err: unknown) => void;
  const result = new Promise<EntryResult>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // The caller awaits it; a failure before it does is not an unhandled rejection.
  result.catch(() => {});
  return { result, resolve, reject };
}
