import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('platform: health, version, docs, errors, CSRF, headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ withQueue: true });
  });
  afterAll(() => t.close());

  it('GET /api/health reports database and queue', async () => {
    const res = await t.client().get('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'up', queue: 'up' });
  });

  it('GET /api/appVersion gives the product version', async () => {
    const res = await t.client().get('/api/appVersion');
    expect(res.json()).toEqual({ data: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  });

  it('serves the OpenAPI document at /api/docs', async () => {
    const res = await t.client().get('/api/docs/json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/contactUs', '/api/health', '/api/auth/login']),
    );
  });

  it('answers unknown API paths with the error shape', async () => {
    const res = await t.client().get('/api/no-such-thing');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      message: 'Not found',
      displayToUser: false,
      reason: 'NotFound',
      location: 'GET /api/no-such-thing',
      errors: [],
      user: null,
    });
  });

  it('sends security headers and a request id', async () => {
    const res = await t.client().get('/api/appVersion');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('malformed JSON is a 400 in the error shape', async () => {
    const c = t.client();
    const token = await c.csrfToken();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/contactUs',
      headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie: `tw_csrf=${token}` },
      payload: '{"firstName":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ reason: 'ValidationError', displayToUser: false, errors: [] });
  });

  describe('CSRF', () => {
    const body = {
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@example.org',
      subject: 'Hello team',
      message: 'A message long enough.',
    };
    const stored = async () =>
      Number(
        (
          await t.ctx.db
            .selectFrom('contact_messages')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    it('missing header → 403 and nothing stored', async () => {
      const res = await t.client().post('/api/contactUs', body, { csrf: false });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ reason: 'CsrfError', location: 'POST /api/contactUs' });
      expect(await stored()).toBe(0);
    });

    it('header not matching the cookie → 403', async () => {
      const c = t.client();
      await c.csrfToken();
      const other = await t.client().csrfToken();
      const res = await c.request('POST', '/api/contactUs', body, {
        csrf: false,
        headers: { 'x-csrf-token': other },
      });
      expect(res.statusCode).toBe(403);
      expect(await stored()).toBe(0);
    });

    it('a self-made token (cookie = header, wrong signature) → 403', async () => {
      const forged = `abc.${createHmac('sha256', 'not-the-secret').update('csrf:abc').digest('base64url')}`;
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/contactUs',
        headers: { 'x-csrf-token': forged, cookie: `tw_csrf=${forged}` },
        payload: body,
      });
      expect(res.statusCode).toBe(403);
      expect(await stored()).toBe(0);
    });

    it('every write method is checked (PUT, PATCH, DELETE too)', async () => {
      for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
        const res = await t.app.inject({ method, url: '/api/userTrials', payload: {} });
        expect(res.statusCode).toBe(403);
        expect(res.json().reason).toBe('CsrfError');
      }
    });

    it('the CSRF cookie is readable by the page but strict same-site', async () => {
      const res = await t.client().get('/api/csrf-token');
      const cookie = (res.cookies as Array<{ name: string; httpOnly?: boolean; sameSite?: string }>).find(
        (c) => c.name === 'tw_csrf',
      );
      expect(cookie?.httpOnly).toBeFalsy();
      expect(cookie?.sameSite).toBe('Strict');
    });

    it('every write here needs the CSRF header', async () => {
      const writes = [
        '/api/auth/verifyTOTP',
        '/api/auth/validateTOTP',
        '/api/auth/generateSendEmailTOTP',
        '/api/auth/resetSFA',
        '/api/auth/forgotPassword',
        '/api/auth/resetPasswordValidation',
        '/api/auth/resetPassword',
        '/api/auth/changePwdReq',
        '/api/userSignUpPermission/approveSignUp',
        '/api/userSignUpPermission/signupRequestValidation',
        '/api/users/signup',
        '/api/Participants/signup',
        '/api/recaptchaVer3Verify',
        '/api/selectTeam',
        '/api/auth/login',
        '/api/auth/logout',
        '/api/auth/refreshToken',
      ];
      for (const url of writes) {
        const res = await t.client().post(url, {}, { csrf: false });
        expect(res.statusCode, url).toBe(403);
        expect(res.json().reason, url).toBe('CsrfError');
      }
    });
  });
});
