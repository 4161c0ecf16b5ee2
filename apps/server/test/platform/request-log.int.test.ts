/*
 * The log line every request leaves, and the lines a request logs along the
 * way: each carries the request's id (the x-request-id answered), the line of
 * the request holds its method, URL without secrets, address, status and time,
 * and nothing else of the request.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED } from '../../src/http/log-redaction.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';

describe('request log lines', () => {
  let t: TestApp;
  let f: TeamFixture;
  const lines: Array<Record<string, unknown>> = [];
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    t = await createTestApp({ logStream: sink });
    f = await teamWithRoles(t, 'Request Log Team', { hiddenFields: [] });
  });
  afterAll(() => t.close());

  /** The lines of one request, once its own line (written when the answer has gone) is in. */
  async function linesOf(requestId: string) {
    const mine = () => lines.filter((l) => l.reqId === requestId);
    await until(() => mine().some((l) => l.msg === 'request completed'), `the line of ${requestId}`);
    return mine();
  }

  it('one line for a request that logs nothing else', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    const [line, ...others] = await linesOf(String(res.headers['x-request-id']));
    expect(others).toEqual([]);
    expect(line).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { method: 'GET', url: '/api/health', remoteAddress: '127.0.0.1' },
      res: { statusCode: 200 },
    });
    expect(line!.responseTime).toBeTypeOf('number');
    expect(Object.keys(line!.req as object).sort()).toEqual(['method', 'remoteAddress', 'url']);
  });

  it('a secret of the URL is not logged', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/user?page=2&token=s3cr3t-value' });
    const [line] = await linesOf(String(res.headers['x-request-id']));
    expect((line!.req as { url: string }).url).toBe(`/api/auth/user?page=2&token=${REDACTED}`);
    expect(JSON.stringify(lines)).not.toContain('s3cr3t-value');
  });

  it("a refusal's line and the request's line carry the same id", async () => {
    const res = await f.as.Admin.get('/api/trialParticipants/999999999');
    expect(res.statusCode).toBe(404);
    const requestLines = await linesOf(String(res.headers['x-request-id']));
    expect(requestLines.map((l) => l.msg)).toEqual([res.json().message, 'request completed']);
    expect(requestLines[1]).toMatchObject({ res: { statusCode: 404 } });
  });

  it('an id the caller sends is the id of its lines', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'lb-42.a' },
    });
    expect(res.headers['x-request-id']).toBe('lb-42.a');
    expect((await linesOf('lb-42.a')).length).toBe(1);
  });
});
