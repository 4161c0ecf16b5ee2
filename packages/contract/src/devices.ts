/*
 * Device providers and device links: the provider list, their brands and
 * public pages, the device-list and link-status answers, and every message
 * the link flow shows. Server and web both read these, so a provider is
 * added (or a message changed) in one place.
 */
import { z } from 'zod';

export const PROVIDERS = ['fitbit', 'omron', 'dexcom'] as const;
export const providerSchema = z.enum(PROVIDERS);
export type Provider = z.infer<typeof providerSchema>;

/** Team brands (allowed brands, global catalog manufacturers). */
export const BRANDS = ['Fitbit', 'Omron', 'Dexcom'] as const;
export type Brand = (typeof BRANDS)[number];

export const PROVIDER_BRAND: Record<Provider, Brand> = { fitbit: 'Fitbit', omron: 'Omron', dexcom: 'Dexcom' };

/**
 * Public pages of the link flow (core §2). Dexcom has no consent page of its
 * own in the spec: it uses the Fitbit consent page with `provider=dexcom`.
 */
export const PROVIDER_PAGES: Record<Provider, { consent: string; callback: string }> = {
  fitbit: { consent: '/PAFitbitConsentPage', callback: '/fitbit-callback' },
  omron: { consent: '/OmronConsentPage', callback: '/omron-callback' },
  dexcom: { consent: '/PAFitbitConsentPage', callback: '/dexcom-callback' },
};

/** One entry of a participant's device list (core §3 "Device entry"). */
export const deviceEntrySchema = z.object({
  device: z.enum(['fitness tracker', 'scale', 'glucose monitor', 'Error']),
  /** A person's name for the device ('Fitbit Sense 2', 'Blood pressure monitor', 'Dexcom G7'); null on an error entry. */
  deviceName: z.string().nullable(),
  batteryLevel: z.number().nullable(),
  battery: z.string().nullable(),
  deviceVersion: z.string().nullable(),
  deviceType: z.enum(['TRACKER', 'SCALE', 'BLOOD_PRESSURE', 'CGM']).nullable(),
  lastSyncTime: z.string().nullable(),
  hasError: z.boolean(),
  errorType: z.string().nullable(),
});
export type DeviceEntry = z.infer<typeof deviceEntrySchema>;

/** The device type as people read it on a card (never the raw BLOOD_PRESSURE label). */
export const DEVICE_TYPE_LABEL: Record<NonNullable<DeviceEntry['deviceType']>, string> = {
  TRACKER: 'Tracker',
  SCALE: 'Scale',
  BLOOD_PRESSURE: 'Blood pressure monitor',
  CGM: 'Continuous glucose monitor',
};

export const LINK_STATUSES = ['none', 'pending', 'authorized', 'revoked', 'error'] as const;
/**
 * Which API a Fitbit link reads through (issue #13): the legacy Fitbit Web
 * API or its successor, the Google Health API. Null for other brands and
 * for a participant without a link.
 */
export const FITBIT_APIS = ['google_health', 'legacy'] as const;
export type FitbitApi = (typeof FITBIT_APIS)[number];
export const FITBIT_API_LABELS: Record<FitbitApi, string> = {
  google_health: 'Google Health API',
  legacy: 'Fitbit Web API (legacy)',
};

export const linkStatusSchema = z.object({
  status: z.enum(LINK_STATUSES),
  authorizationDate: z.string().nullable(),
  revokeAvailable: z.boolean(),
  api: z.enum(FITBIT_APIS).nullable(),
  /**
   * The link reads through the legacy Fitbit Web API, this deployment links
   * through the Google Health API, and the legacy link stopped working: the
   * participant must consent again (the consent request sends the Google link).
   */
  reconsentRequired: z.boolean(),
});
export type LinkStatus = z.infer<typeof linkStatusSchema>;

/**
 * GET /api/participantDevices/{id}/{provider}/token (the token management
 * pages, Sys_Admin and Admin): the link status and what is known about its
 * token — scopes, expiry, last change — never the token itself.
 */
export const tokenStatusSchema = linkStatusSchema.extend({
  scopes: z.array(z.string()),
  expiresAt: z.string().nullable(),
  tokenUpdatedAt: z.string().nullable(),
  refreshable: z.boolean(),
});
export type TokenStatus = z.infer<typeof tokenStatusSchema>;

export const consentRequestResultSchema = z.object({
  success: z.boolean(),
  emailed: z.boolean(),
  link: z.string(),
});
export type ConsentRequestResult = z.infer<typeof consentRequestResultSchema>;

export const linkActionResultSchema = z.object({ success: z.boolean(), message: z.string() });
export type LinkActionResult = z.infer<typeof linkActionResultSchema>;

export const LINK_MESSAGES = {
  authFailed: 'Unable to complete authorization. Please click Cancel and try again.',
  revokeFailed: 'Something went wrong! We could not revoke the access token',
  refreshFailed: 'Something went wrong! We could not refresh the access token',
  notLinked: 'This participant has no authorized device of this brand.',
  badLink: 'This consent link is not valid.',
  invalidState: 'Invalid authorization request. Please try again.',
  tokenRefreshed: 'Token refreshed',
  accessRevoked: 'Access revoked',
  linkExpired: 'This consent link has expired. Please ask your study team for a new one.',
  linkUsed: 'This consent link has already been used. Please ask your study team for a new one if needed.',
  tooManyRequests: 'Too many consent requests for this participant. Please try again in an hour.',
  otherAccount:
    'This participant is already linked to a different account of this brand. The study team must revoke the current link before a new account can be linked.',
  reconsent:
    'The legacy Fitbit link stopped working. The participant must consent again: Request Authorization sends the link to the Google Health API consent.',
} as const;

/** Consent links (core §4): valid for 7 days, spent by a successful link, at most 3 requests an hour per participant and brand. */
export const CONSENT_LINKS = { validDays: 7, maxRequestsPerHour: 3 } as const;

export const linkedMessage = (provider: Provider) =>
  `Your ${PROVIDER_BRAND[provider]} is now connected to your study. You may close this page.`;

/** Error-card labels of core §8, from real failures. */
export const DEVICE_ERROR_LABELS = {
  rateLimited: 'Rate limit exceeded',
  authRequired: 'Authentication required',
  notFound: 'Device not found',
  connection: 'Connection error',
  server: 'Server error',
  processing: 'Processing failed',
  authCheckFailed: 'Auth check failed',
} as const;
export type DeviceErrorLabel = (typeof DEVICE_ERROR_LABELS)[keyof typeof DEVICE_ERROR_LABELS];

/**
 * Providers a participant's link can name (`authorized_devices` of the trial
 * page): a Fitbit link may run on the Google Health API back end, and is
 * still a Fitbit link to the people using the portal.
 */
export const LINK_PROVIDERS = ['fitbit', 'google_health', 'omron', 'dexcom'] as const;
export type LinkProvider = (typeof LINK_PROVIDERS)[number];
export const PROVIDER_OF_LINK: Record<LinkProvider, Provider> = {
  fitbit: 'fitbit',
  google_health: 'fitbit',
  omron: 'omron',
  dexcom: 'dexcom',
};
/** The link APIs of each provider (a Fitbit link is on either of Fitbit's two APIs). */
export const LINKS_OF_PROVIDER: Record<Provider, readonly LinkProvider[]> = {
  fitbit: ['fitbit', 'google_health'],
  omron: ['omron'],
  dexcom: ['dexcom'],
};
/** The provider behind a link name from the API, or undefined for a name this contract does not know. */
export function providerOfLink(name: string): Provider | undefined {
  return (LINK_PROVIDERS as readonly string[]).includes(name)
    ? PROVIDER_OF_LINK[name as LinkProvider]
    : undefined;
}

/** "Authorization failed" texts per provider (core §8 "Authorization"), shown by the link flow's pages. */
export const AUTHORIZATION_FAILED: Record<Provider, string> = {
  fitbit: 'Authorization failed - Please click Cancel and try again if needed!',
  omron: 'Authorization failed! Please click Cancel and try again if needed',
  dexcom: 'Authorization failed!',
};

/** GET /api/consent/{provider}/authorizeUrl: where the participant's browser goes next. */
export const authorizeUrlResultSchema = z.object({ url: z.string() });
export type AuthorizeUrlResult = z.infer<typeof authorizeUrlResultSchema>;

/** GET /api/teamAllowedDevices/{teamId}: the brands a team may link. */
export const teamAllowedDeviceSchema = z.object({ brand_name: z.string() });
export type TeamAllowedDevice = z.infer<typeof teamAllowedDeviceSchema>;

/** GET /api/teamSupportedDevices/{teamId}: the team's devices from the global catalog. */
export const teamSupportedDeviceSchema = z.object({
  id: z.number(),
  team_id: z.number(),
  global_device_catalog_id: z.number(),
  device_name: z.string(),
  device_type: z.string(),
  manufacturer: z.string(),
  is_active: z.boolean(),
  notes: z.string().nullable(),
});
export type TeamSupportedDevice = z.infer<typeof teamSupportedDeviceSchema>;

/** GET /api/{provider}ClientId: the client id in use, and whether it is the simulator's. */
export const providerClientIdResultSchema = z.object({ clientId: z.string(), simulated: z.boolean() });
export type ProviderClientIdResult = z.infer<typeof providerClientIdResultSchema>;

/** GET /api/{fitbit,omron}IsParticipantAuth/{id}: whether the participant has an authorized link. */
export const participantAuthResultSchema = z.object({ message: z.enum(['found', 'not found']) });
export type ParticipantAuthResult = z.infer<typeof participantAuthResultSchema>;

/**
 * OAuth scopes as a coordinator reads them on the token pages: the Fitbit Web
 * API's, the Google Health API's (a URL; its `.readonly` is said as "read"),
 * Omron's and Dexcom's. A scope not listed shows as granted, without its URL.
 */
const SCOPE_LABELS: Record<string, string> = {
  // Fitbit Web API
  activity: 'Activity and exercise',
  heartrate: 'Heart rate',
  sleep: 'Sleep',
  weight: 'Weight and body',
  profile: 'Profile',
  settings: 'Settings and devices',
  location: 'Location (GPS)',
  nutrition: 'Food and water',
  oxygen_saturation: 'Oxygen saturation (SpO2)',
  respiratory_rate: 'Breathing rate',
  temperature: 'Skin temperature',
  cardio_fitness: 'Cardio fitness (VO2 max)',
  electrocardiogram: 'ECG',
  irregular_rhythm_notifications: 'Irregular rhythm notifications',
  social: 'Friends',
  // Google Health API (after googlehealth.)
  activity_and_fitness: 'Activity and fitness',
  health_metrics_and_measurements: 'Health metrics and measurements',
  // Omron, Dexcom, OpenID
  bloodpressure: 'Blood pressure',
  openid: 'Sign-in identity (OpenID)',
  offline_access: 'Access while the participant is away (refresh token)',
};

const GOOGLE_HEALTH_SCOPE =
  /^https:\/\/www\.googleapis\.com\/auth\/googlehealth\.([a-z_]+?)(\.readonly|\.writeonly)?$/;

export function scopeLabel(scope: string): string {
  const google = GOOGLE_HEALTH_SCOPE.exec(scope);
  if (google) {
    const name = SCOPE_LABELS[google[1]!] ?? google[1]!.replace(/_/g, ' ');
    return google[2] === '.readonly'
      ? `${name} (read)`
      : google[2] === '.writeonly'
        ? `${name} (write)`
        : name;
  }
  return SCOPE_LABELS[scope] ?? scope.replace(/^https?:\/\/[^/]+\/(auth\/)?/, '');
}
