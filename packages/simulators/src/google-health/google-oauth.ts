/*
 * Google OAuth 2.0 (google-health-api.md §2) on the shared OAuth routes:
 * /o/oauth2/v2/auth (consent with one box per scope: granular consent),
 * /token (client id and secret in the form or HTTP Basic, PKCE S256 or
 * plain with a confidential client), /revoke (no client authentication,
 * the token in the query or the form, 200 with an empty body). A refresh
 * token only with access_type=offline, and on a repeat consent only with
 * prompt=consent; refresh never rotates it (the answer carries none).
 * Error bodies are Google's `{error, error_description}`.
 */
import type { Brand } from '../oauth/authorize-page.js';
import { idToken } from '../oauth/common.js';
import type { OAuthProvider } from '../oauth/oauth-routes.js';
import type { GoogleHealthConfig } from './gh-config.js';
import { googleSub } from './person.js';

export const GOOGLE_BRAND: Brand = { name: 'Google Health', color: '#1a73e8' };

const PREFIX = 'https://www.googleapis.com/auth/googlehealth.';

/** The read scopes (§2.5), suffix → what the consent page says. */
const READ_SCOPES: Record<string, string> = {
  activity_and_fitness:
    'See your activity and fitness data (steps, distance, floors, calories, active minutes, VO2 max)',
  health_metrics_and_measurements:
    'See your health metrics and measurements (heart rate, HRV, SpO2, breathing rate, temperature, weight, body fat)',
  sleep: 'See your sleep data',
  nutrition: 'See your food and water logs',
  settings: 'See your settings (time zone, units) and paired devices',
  profile: 'See your profile (age, membership date, stride lengths)',
  location: 'See the location data of your exercises',
  ecg: 'See your ECG readings',
  irn: 'See your irregular rhythm notifications',
  logged_symptoms: 'See your logged symptoms',
  mindfulness: 'See your mindfulness sessions and moods',
  reproductive_health: 'See your menstrual and ovulation data',
};

/** Every scope name for the Google Health API, current (.readonly/.writeonly) and legacy suffix-less ones. */
export const GOOGLE_HEALTH_SCOPES = Object.keys(READ_SCOPES).map((s) => `${PREFIX}${s}.readonly`);

const OIDC: Record<string, string> = {
  openid: 'Associate you with your personal info on Google',
  email: 'See your primary Google Account email address',
  profile: 'See your personal info, including any personal info you have made publicly available',
  'https://www.googleapis.com/auth/userinfo.email': 'See your primary Google Account email address',
  'https://www.googleapis.com/auth/userinfo.profile': 'See your personal info',
};

function describe(scope: string, config: GoogleHealthConfig): string | null {
  if (OIDC[scope]) return OIDC[scope]!;
  if (!scope.startsWith(PREFIX)) return null;
  const rest = scope.slice(PREFIX.length);
  const m = rest.match(/^([a-z_]+)(\.readonly|\.writeonly)?$/);
  if (!m || !READ_SCOPES[m[1]!]) return null;
  if (!m[2]) return config.acceptLegacyScopeNames ? `${READ_SCOPES[m[1]!]!} (and change it)` : null;
  return m[2] === '.writeonly'
    ? READ_SCOPES[m[1]!]!.replace(/^See/, 'Add to and change')
    : READ_SCOPES[m[1]!]!;
}

/** Whether a granted scope string lets a call read an area (`.readonly`, or the legacy read-write name). */
export function grants(scope: string, area: string, config: GoogleHealthConfig): boolean {
  const names = scope.split(' ');
  return (
    names.includes(`${PREFIX}${area}.readonly`) ||
    (config.acceptLegacyScopeNames && names.includes(`${PREFIX}${area}`))
  );
}

/** Whether any Google Health read scope was granted (GetIdentity accepts any one, §2.5). */
export const grantsAnyRead = (scope: string, config: GoogleHealthConfig) =>
  Object.keys(READ_SCOPES).some((a) => grants(scope, a, config));

const split = (scope: string) => scope.split(/[\s+]+/).filter(Boolean);

/**
 * The service-account grant (JWT bearer, RFC 7523) that gives the
 * `cloud-platform` token subscriber management needs (§5.1). The simulator
 * reads the assertion's claims (iss, scope, exp) without checking the
 * signature: it cannot know the service account's key.
 */
function jwtBearer(
  b: Record<string, string>,
  issue: (iss: string, scope: string) => { token: string; expiresIn: number },
  nowMs: number,
) {
  const fail = (d: string) => ({ status: 400, body: { error: 'invalid_grant', error_description: d } });
  const parts = (b.assertion ?? '').split('.');
  if (parts.length !== 3)
    return fail('Invalid JWT: Token must be a short-lived token and in a reasonable timeframe');
  let claims: Record<string, unknown>;
  try {
    claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return fail('Invalid JWT Signature.');
  }
  if (typeof claims.iss !== 'string' || typeof claims.scope !== 'string')
    return fail('Invalid JWT: missing iss or scope.');
  if (typeof claims.exp !== 'number' || claims.exp * 1000 < nowMs)
    return fail(
      'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.',
    );
  const t = issue(claims.iss, claims.scope);
  return { status: 200, body: { access_token: t.token, expires_in: t.expiresIn, token_type: 'Bearer' } };
}

export function googleOAuthProvider(deps: {
  config: () => GoogleHealthConfig;
  account: (q: Record<string, string | undefined>) => string;
  serviceToken: (iss: string, scope: string) => { token: string; expiresIn: number };
  now: () => number;
}): OAuthProvider {
  return {
    brand: GOOGLE_BRAND,
    authorize: {
      path: '/o/oauth2/v2/auth',
      errors: {
        missingClientId: 'Error 400: invalid_request. Missing required parameter: client_id',
        unknownClient: 'Error 401: invalid_client. The OAuth client was not found.',
        missingResponseType: 'Error 400: invalid_request. Required parameter is missing: response_type',
        unsupportedResponseType: 'Error 400: unsupported_response_type',
        missingRedirectUri: 'Error 400: invalid_request. Missing required parameter: redirect_uri',
        unregisteredRedirectUri: 'Error 400: redirect_uri_mismatch',
      },
      soleRedirectUriIsDefault: false,
      pkce: {
        badChallengeLength: 'Error 400: invalid_request. Invalid code_challenge length.',
        unsupportedMethod: 'Error 400: invalid_request. Invalid code_challenge_method.',
      },
      account: (q) => deps.account(q),
      defaultScope: '',
      invalidScope: (scope) => {
        const names = split(scope);
        if (names.length === 0) return 'Error 400: invalid_request. Missing required parameter: scope';
        const bad = names.filter((s) => describe(s, deps.config()) === null);
        return bad.length
          ? `Error 400: invalid_scope. Some requested scopes were invalid. {invalid=[${bad.join(', ')}]}`
          : null;
      },
      scopes: (scope) => {
        const names = split(scope);
        return { shown: names.map((s) => describe(s, deps.config()) ?? s), granted: names.join(' ') };
      },
      selectableScopes: true,
      scopeInRedirect: true,
      // include_granted_scopes=true: the new grant also carries what the user granted before (§2.2).
      mergeScopes: (p, scope, held) =>
        p.include_granted_scopes === 'true' && scope !== ''
          ? [
              ...new Set([...split(scope), ...[...held].filter((s) => describe(s, deps.config()) !== null)]),
            ].join(' ')
          : scope,
      passThrough: ['access_type', 'prompt', 'include_granted_scopes', 'login_hint'],
      issueRefreshToken: (p, alreadyHasOne) =>
        p.access_type === 'offline' && (!alreadyHasOne || split(p.prompt ?? '').includes('consent')),
      invalidDecision: 'Error 400: redirect_uri_mismatch',
    },
    token: {
      path: '/token',
      clientAuth: 'secret',
      invalidClient: 'Unauthorized',
      unsupportedGrantType: 'Invalid grant_type',
      missingParameter: (name) => `Missing required parameter: ${name}`,
      customGrant: (b) =>
        b.grant_type === 'urn:ietf:params:oauth:grant-type:jwt-bearer'
          ? jwtBearer(b, deps.serviceToken, deps.now())
          : null,
      body: (t, { client, nowMs }) => ({
        access_token: t.accessToken,
        expires_in: t.expiresIn,
        ...(t.refreshToken && { refresh_token: t.refreshToken }),
        scope: t.scope,
        token_type: 'Bearer',
        ...(split(t.scope).includes('openid') && {
          id_token: idToken(googleSub(t.userId), client.clientId, nowMs),
        }),
      }),
    },
    revoke: {
      path: '/revoke',
      silent: false,
      tokenOnly: true,
      missingToken: 'Bad Request',
      unknownToken: 'Token expired or revoked',
    },
    errorReply: (f) => {
      if (f.kind === 'invalid_client')
        return { status: 401, body: { error: 'invalid_client', error_description: 'Unauthorized' } };
      const body = (error: string, error_description: string) => ({
        status: 400,
        body: { error, error_description },
      });
      switch (f.reason) {
        case 'code_invalid':
        case 'code_other_client':
          return body('invalid_grant', 'Bad Request');
        case 'redirect_mismatch':
          return body('redirect_uri_mismatch', 'Bad Request');
        case 'verifier_missing':
          return body('invalid_grant', 'Missing code verifier.');
        case 'verifier_invalid':
          return body('invalid_grant', 'Invalid code verifier.');
        case 'refresh_invalid':
          return body('invalid_grant', 'Token has been expired or revoked.');
        case 'unsupported_grant_type':
          return body('unsupported_grant_type', f.message);
        default:
      }
      if (f.message === 'Token expired or revoked') return body('invalid_token', f.message);
      return body(f.kind === 'conflict' ? 'invalid_grant' : f.kind, f.message);
    },
  };
}
