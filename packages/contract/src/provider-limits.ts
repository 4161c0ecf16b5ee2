/* What the pages, the sync badge and the export panel say while a provider's calls must wait (issue #21 §3). */

/**
 * What the pages say when a device's provider calls must wait (our hourly
 * budget for interactive reads is spent, or the provider answered 429): the
 * time is the viewer's own clock time (`clockTime`), from the server's
 * `resumesAt` instant (429 answers carry it in `user.resumesAt` and Retry-After).
 */
export const PROVIDER_LIMIT_MESSAGES = {
  dataPage: (brand: string, time: string) =>
    `${brand}'s hourly limit for this participant is reached; data resumes at ${time}`,
  /** The data page when the resume time is not known (a provider 429 without Retry-After). */
  dataPageNoTime: (brand: string) =>
    `${brand}'s hourly limit for this participant is reached; data resumes within the hour`,
  sync: (time: string) => `waiting for the provider's limit until ${time}`,
  export: (brand: string, time: string) => `waiting for ${brand}'s hourly limit (resumes ${time})`,
} as const;

/** The body's `user` of a 429 for a provider limit: when calls resume (ISO instant). */
export interface ProviderLimitInfo {
  resumesAt: string;
}

/** The instant's wall-clock time, 24 h "HH:MM", in `timeZone` (default: the runtime's, i.e. the viewer's browser). */
export function clockTime(iso: string | Date, timeZone?: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    ...(timeZone ? { timeZone } : {}),
  }).format(typeof iso === 'string' ? new Date(iso) : iso);
}
