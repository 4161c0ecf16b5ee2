export const root: string;
/** Each build: the file it writes last, and the sources (relative to the root) it is built from. */
export const builds: Record<'server' | 'web', { output: string; sources: string[] }>;
/** True when `output` is missing or a file under one of `sources` is newer (paths relative to `base`). */
export function isStale(output: string, sources: string[], base?: string): boolean;
/** The names of the builds that are missing or stale, server first. */
export function staleBuilds(base?: string): Array<'server' | 'web'>;
/** Marks the server build as done now (tsc -b leaves an unchanged output file alone). */
export function markServerBuilt(): void;
export function ensureServerBuilt(): void;
export function ensureWebBuilt(): void;
/** Builds what is missing or stale, as production; throws when a build fails. */
export function buildStale(opts?: { stdio?: 'inherit' | 'ignore' | 'pipe' }): void;
