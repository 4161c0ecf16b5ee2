import { describe, expect, it } from 'vitest';
import { REDACTED, redactUrl } from './log-redaction.js';

describe('redactUrl', () => {
  it('hides the values of secret query parameters and keeps the rest', () => {
    expect(redactUrl('/ResetPasswordPage?token=abc123')).toBe(`/ResetPasswordPage?token=${REDACTED}`);
    expect(redactUrl('/ParticipantLoginPage?verify=abc123')).toBe(`/ParticipantLoginPage?verify=${REDACTED}`);
    expect(redactUrl('/PAFitbitConsentPage?id=12&t=Zx9&provider=dexcom')).toBe(
      `/PAFitbitConsentPage?id=12&t=${REDACTED}&provider=dexcom`,
    );
    expect(redactUrl('/fitbit-callback?code=c0de&state=12.n.sig#_=_')).toBe(
      `/fitbit-callback?code=${REDACTED}&state=${REDACTED}#_=_`,
    );
    expect(redactUrl('/x?Token=A&KEY=b&code_verifier=v')).toBe(
      `/x?Token=${REDACTED}&KEY=${REDACTED}&code_verifier=${REDACTED}`,
    );
  });

  it('leaves URLs without secrets alone', () => {
    expect(redactUrl('/api/trialParticipants/12')).toBe('/api/trialParticipants/12');
    expect(redactUrl('/api/x?limit=10&tab=2')).toBe('/api/x?limit=10&tab=2');
    expect(redactUrl('/api/x?token')).toBe('/api/x?token');
    expect(redactUrl('/api/x?tokens=1&xcode=2&t2=3')).toBe('/api/x?tokens=1&xcode=2&t2=3');
  });

  it('finds a secret anywhere in the query, in any case', () => {
    expect(redactUrl('/api/x?page=1&pageSize=50&Refresh_Token=r')).toBe(
      `/api/x?page=1&pageSize=50&Refresh_Token=${REDACTED}`,
    );
    expect(redactUrl('/x?a=1&t=2#frag')).toBe(`/x?a=1&t=${REDACTED}#frag`);
  });

  it('recognises encoded parameter names', () => {
    expect(redactUrl('/x?%74oken=secret')).toBe(`/x?%74oken=${REDACTED}`);
  });
});
