import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { statusAfterPassword } from './features/auth/service.js';
import { teamStatus } from './features/auth/session.js';
import { issueCsrfToken, isValidCsrfToken } from './http/csrf.js';

describe('config', () => {
  it('has safe local defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      PORT: 3000,
      HOST: '127.0.0.1',
      SEED_DEMO: true,
      publicUrl: 'http://127.0.0.1:3000',
    });
    expect(c.dataDir).toMatch(/\.data$/);
    expect(c.DATABASE_URL).toBeUndefined();
  });
  it('treats empty strings as unset and parses booleans', () => {
    const c = loadConfig({
      DATABASE_URL: '',
      SMTP_URL: '',
      SEED_DEMO: 'false',
      PUBLIC_URL: 'https://tw.example.org/',
    });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.SMTP_URL).toBeUndefined();
    expect(c.SEED_DEMO).toBe(false);
    expect(c.publicUrl).toBe('https://tw.example.org');
  });
  it('links Fitbits through the Google Health API unless FITBIT_API says legacy', () => {
    expect(loadConfig({}).FITBIT_API).toBe('google_health');
    expect(loadConfig({ FITBIT_API: '' }).FITBIT_API).toBe('google_health');
    expect(loadConfig({ FITBIT_API: 'legacy' }).FITBIT_API).toBe('legacy');
    expect(() => loadConfig({ FITBIT_API: 'fitbit' })).toThrow(/FITBIT_API/);
    expect(loadConfig({}).GOOGLE_HEALTH_API_URL).toBe('https://health.googleapis.com');
  });
  it('names the bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ SEED_DEMO: 'maybe' })).toThrow(/SEED_DEMO/);
  });
});

describe('CSRF tokens', () => {
  it('verify only with the secret that signed them, for the session they were issued for', () => {
    const token = issueCsrfToken('s1', 'session-a');
    expect(isValidCsrfToken('s1', token, 'session-a')).toBe(true);
    expect(isValidCsrfToken('s2', token, 'session-a')).toBe(false);
    expect(isValidCsrfToken('s1', token, 'session-b')).toBe(false);
    expect(isValidCsrfToken('s1', token, undefined)).toBe(false);
    expect(isValidCsrfToken('s1', `${token}x`, 'session-a')).toBe(false);
    expect(isValidCsrfToken('s1', 'garbage', 'session-a')).toBe(false);
    const anonymous = issueCsrfToken('s1', null);
    expect(isValidCsrfToken('s1', anonymous, undefined)).toBe(true);
    expect(isValidCsrfToken('s1', anonymous, 'session-a')).toBe(false);
  });
});

describe('team status (dashboard message)', () => {
  const now = new Date('2026-06-15T12:00:00Z');
  it.each([
    [{ is_active: true, subscription_starts: null, subscription_ends: null }, 'Active'],
    [{ is_active: false, subscription_starts: null, subscription_ends: null }, 'Inactive'],
    [{ is_active: true, subscription_starts: '2026-07-01', subscription_ends: null }, 'Inactive'],
    [{ is_active: true, subscription_starts: '2026-01-01', subscription_ends: '2026-06-14' }, 'Inactive'],
    [{ is_active: true, subscription_starts: '2026-01-01', subscription_ends: '2026-06-15' }, 'Active'],
  ])('%j → %s', (team, status) => {
    expect(teamStatus(team, now)).toBe(status);
  });
});

describe('auth status after a correct password (core §4)', () => {
  const base = { sfa_required: true, sfa_enabled: false, sfa_type: null, sfa_secret_enc: null };
  it.each([
    [{ ...base, sfa_required: false }, 'Authorized'],
    [base, 'SFAIsNotSet'],
    [{ ...base, sfa_secret_enc: 'x' }, 'SFAVerifyCodeNeeded'],
    [{ ...base, sfa_enabled: true, sfa_type: 'totp', sfa_secret_enc: 'x' }, 'SFAValidateCodeNeeded'],
    [{ ...base, sfa_enabled: true, sfa_type: 'email' }, 'SFAValidateEmailCodeNeeded'],
  ])('%j → %s', (user, status) => {
    expect(statusAfterPassword(user)).toBe(status);
  });
});
