import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { CONTACT_MESSAGES } from '@trialwear/contract';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';

const valid = {
  firstName: 'Grace',
  lastName: 'Hopper',
  email: 'grace@example.org',
  subject: 'Access question',
  message: 'How do I request access for a new coordinator?',
  recaptchaResponse: '',
};

async function countMessages(t: TestApp) {
  const row = await t.ctx.db
    .selectFrom('contact_messages')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('POST /api/contactUs (outbox mail)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const cases: Array<[string, Partial<typeof valid>, string, string]> = [
    ['first name missing', { firstName: '' }, 'firstName', CONTACT_MESSAGES.firstNameRequired],
    [
      'first name too short',
      { firstName: 'A' },
      'firstName',
      'First name must be between 2 and 50 characters',
    ],
    [
      'first name too long',
      { firstName: 'A'.repeat(51) },
      'firstName',
      'First name must be between 2 and 50 characters',
    ],
    ['last name missing', { lastName: '  ' }, 'lastName', CONTACT_MESSAGES.lastNameRequired],
    [
      'last name too long',
      { lastName: 'B'.repeat(51) },
      'lastName',
      'Last name must be between 2 and 50 characters',
    ],
    ['email missing', { email: '' }, 'email', CONTACT_MESSAGES.emailRequired],
    ['email invalid', { email: 'grace@' }, 'email', CONTACT_MESSAGES.emailInvalid],
    ['subject missing', { subject: '' }, 'subject', CONTACT_MESSAGES.subjectRequired],
    ['subject too short', { subject: 'Hi' }, 'subject', 'Subject must be between 3 and 50 characters'],
    ['message missing', { message: '' }, 'message', CONTACT_MESSAGES.messageRequired],
    [
      'message too short',
      { message: 'Too short' },
      'message',
      'Message must be between 10 and 300 characters',
    ],
    [
      'message too long',
      { message: 'x'.repeat(301) },
      'message',
      'Message must be between 10 and 300 characters',
    ],
  ];

  it.each(cases)(
    '%s → 400 with the exact message and nothing stored',
    async (_name, patch, field, message) => {
      const before = await countMessages(t);
      const res = await t.client().post('/api/contactUs', { ...valid, ...patch });
      expect(res.statusCode).toBe(400);
      const body = res.json();
      expect(body).toMatchObject({
        reason: 'ValidationError',
        displayToUser: true,
        location: 'POST /api/contactUs',
        user: null,
      });
      expect(body.errors).toContainEqual({ path: field, message });
      expect(Object.keys(body).sort()).toEqual([
        'displayToUser',
        'errors',
        'location',
        'message',
        'reason',
        'user',
      ]);
      expect(await countMessages(t)).toBe(before);
    },
  );

  it('stores the message and writes the mail to the outbox', async () => {
    // Its own text, to find its own mail among the other tests' in the outbox.
    const message = 'How do I request access for a new coordinator? (outbox test)';
    const outbox = path.join(t.dataDir, 'outbox');
    const mails = () =>
      (fs.existsSync(outbox) ? fs.readdirSync(outbox) : [])
        .map((f) => fs.readFileSync(path.join(outbox, f), 'utf8'))
        .filter((eml) => eml.includes(message));
    const res = await t.client().post('/api/contactUs', { ...valid, message });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: CONTACT_MESSAGES.sent });
    const row = await t.ctx.db
      .selectFrom('contact_messages')
      .selectAll()
      .where('id', '=', res.json().id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ first_name: 'Grace', email: 'grace@example.org', mail_status: 'sent' });
    const found = mails();
    expect(found).toHaveLength(1);
    const eml = found[0]!;
    expect(eml).toContain('To: support@trialwear.local');
    expect(eml).toContain('Reply-To: grace@example.org');
    expect(eml).toContain(message);
  });

  it("each message is audited (its id and the sender's IP, not its content)", async () => {
    const c = t.client();
    const res = await c.post('/api/contactUs', { ...valid, subject: 'Audit me' });
    const id = res.json().id as number;
    const audit = await t.ctx.db
      .selectFrom('audit_log')
      .select(['user_id', 'action', 'entity_type', 'entity_id', 'ip', 'after'])
      .where('entity_type', '=', 'contact_message')
      .where('entity_id', '=', String(id))
      .execute();
    expect(audit).toEqual([
      {
        user_id: null,
        action: 'contact.message.received',
        entity_type: 'contact_message',
        entity_id: String(id),
        ip: c.ip,
        after: null,
      },
    ]);
  });
});

describe('contact rate limit', () => {
  it('a sixth message within a minute from one address → 429 in the error shape', async () => {
    const t = await createTestApp();
    try {
      const c = t.client();
      for (let i = 0; i < 5; i++) expect((await c.post('/api/contactUs', valid)).statusCode).toBe(200);
      const res = await c.post('/api/contactUs', valid);
      expect(res.statusCode).toBe(429);
      expect(res.json()).toMatchObject({
        message: 'Too Many Requests',
        reason: 'RateLimited',
        displayToUser: true,
      });
      expect(res.headers['retry-after']).toBeDefined();
      expect(await countMessages(t)).toBe(5);
    } finally {
      await t.close();
    }
  });
});

describe('POST /api/contactUs over real SMTP', () => {
  let smtp: SMTPServer;
  let port: number;
  const received: string[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        let data = '';
        stream.on('data', (c) => {
          data += c.toString();
        });
        stream.on('end', () => {
          received.push(data);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    port = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

  it('delivers the message to the SMTP server', async () => {
    const t = await createTestApp({
      env: { SMTP_URL: `smtp://127.0.0.1:${port}`, SUPPORT_EMAIL: 'help@trial.example' },
    });
    try {
      const res = await t.client().post('/api/contactUs', valid);
      expect(res.statusCode).toBe(200);
      expect(received).toHaveLength(1);
      expect(received[0]).toContain('To: help@trial.example');
      expect(received[0]).toContain('Subject: [TrialWear contact #1] Access question');
    } finally {
      await t.close();
    }
  });

  it('keeps the message and answers "Message could not be sent!" when SMTP is down', async () => {
    // A port nobody listens on: connection refused.
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const t = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${deadPort}` } });
    try {
      const res = await t.client().post('/api/contactUs', valid);
      expect(res.statusCode).toBe(502);
      expect(res.json()).toMatchObject({
        message: CONTACT_MESSAGES.failed,
        displayToUser: true,
        reason: 'MailError',
      });
      const row = await t.ctx.db.selectFrom('contact_messages').selectAll().executeTakeFirstOrThrow();
      expect(row.mail_status).toBe('failed');
      expect(row.mail_error).toBeTruthy();
    } finally {
      await t.close();
    }
  });
});

describe('reCAPTCHA on the contact form', () => {
  // A local stand-in for Google's siteverify endpoint, reached over real HTTP.
  let verifier: http.Server;
  let verifyUrl: string;
  beforeAll(async () => {
    verifier = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        const params = new URLSearchParams(body);
        const ok = params.get('secret') === 'test-secret' && params.get('response') === 'good-token';
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify(
            ok
              ? { success: true, score: 0.9 }
              : { success: false, 'error-codes': ['invalid-input-response'] },
          ),
        );
      });
    });
    await new Promise<void>((r) => verifier.listen(0, '127.0.0.1', r));
    verifyUrl = `http://127.0.0.1:${(verifier.address() as AddressInfo).port}/siteverify`;
  });
  afterAll(() => new Promise<void>((r) => verifier.close(() => r())));

  it('rejects a bad token and stores nothing; accepts a good one', async () => {
    const t = await createTestApp({
      env: { RECAPTCHA_SECRET: 'test-secret', RECAPTCHA_VERIFY_URL: verifyUrl },
    });
    try {
      const bad = await t.client().post('/api/contactUs', { ...valid, recaptchaResponse: 'forged' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ reason: 'RecaptchaFailed', displayToUser: true });
      expect(await countMessages(t)).toBe(0);
      const good = await t.client().post('/api/contactUs', { ...valid, recaptchaResponse: 'good-token' });
      expect(good.statusCode).toBe(200);
      expect(await countMessages(t)).toBe(1);
    } finally {
      await t.close();
    }
  });
});
