/** Business constants and limits: section 9 of portal-core.md and portal-admin.md. */
export const LIMITS = {
  sessionRefreshMs: 900_000,
  rememberDeviceHours: 48,
  sfaCodeDigits: 6,
  passwordMin: 8,
  passwordMax: 20,
  notesMax: 300,
  contactMessageMin: 10,
  contactMessageMax: 300,
  ageMaxDigits: 3,
  codeSuffixMax: 12,
  savedFilterMaxChars: 1000,
  savedPageMax: 10_000,
} as const;

export const TABLE = {
  pageSizes: [10, 20, 30, 40, 50] as const,
  defaultPageSize: 10,
  adminPageSize: 50,
  globalSearchDebounceMs: 200,
  sharedSelectionMax: 4,
  participantSelectionMax: 10,
} as const;

export const PERIODS = ['1d', '7d', '30d', '1m', '3m', '6m', '1y', 'customDates'] as const;
export const VO2_PERIODS = ['1d', '7d', '30d'] as const;
export const ACTIVITY_MAX_LOG_CHOICES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 14, 20] as const;
export const SLEEP_LOGGING_DURATION_MS = 7_200_000;
export const DEFAULT_WINDOW_DAYS = 7;
export const SCALE_RESULT_LIMITS = [0, 240, 120, 30, 10] as const;

export const CONVERSIONS = { kgToLb: 2.20462, kmPerMile: 1.609 } as const;

/** Battery icon tiers (core §9): above 90 high, above 50 medium, above 25 low, above 0 very low, else empty. */
export function batteryTier(percent: number): 'high' | 'medium' | 'low' | 'very low' | 'empty' {
  if (percent > 90) return 'high';
  if (percent > 50) return 'medium';
  if (percent > 25) return 'low';
  if (percent > 0) return 'very low';
  return 'empty';
}

export const DEVICE_STATUS = { refreshMs: 300_000, pauseBetweenParticipantsMs: 100 } as const;

export const TIMINGS = {
  recaptchaScriptTimeoutMs: 8_000,
  tooltipHideMs: 5_000,
  contactSuccessHideMs: 5_000,
  toastMs: 3_000,
  signupRedirectMs: 1_500,
  changesSavedMs: 3_000,
} as const;

export const SIDEBAR_WIDTH = 320;
export const EXPORT_FILE_PREFIX = 'TrialWear_';

export const RETENTION = { defaultDays: 30, minDays: 1 } as const;

export const EXPORT = {
  maxRangeMs: 31_536_000_000,
  filesKeptDays: 7,
  jobsListLimit: 10,
  pollMs: 10_000,
  modes: ['separate-tabs', 'single-tab'] as const,
  /**
   * The data files' format: CSV (the spec's, the default), Parquet, one file per metric (issue #24),
   * FHIR R4 NDJSON, one file per resource type, or Open mHealth data points, one file per body
   * schema (issue #25).
   */
  formats: ['csv', 'parquet', 'fhir', 'omh'] as const,
} as const;

/** Retention shown in years: days/365 with one decimal (admin §9). */
export function retentionYears(days: number): number {
  return Math.round((days / 365) * 10) / 10;
}

/** File sizes in B, KB or MB (admin §2). */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
