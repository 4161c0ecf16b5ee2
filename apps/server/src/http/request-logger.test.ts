import { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyChildLogger } from './request-logger.js';

/** A pino logger into an array of parsed lines, counting the children it makes. */
function recordingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const logger = pino({ level: 'info' }, sink);
  let children = 0;
  const child = logger.child.bind(logger);
  logger.child = ((...args: Parameters<typeof child>) => {
    children += 1;
    return child(...args);
  }) as typeof logger.child;
  return { logger: logger as unknown as FastifyBaseLogger, lines, children: () => children };
}

const childOf = (parent: FastifyBaseLogger, reqId: string) =>
  lazyChildLogger.call(undefined as never, parent, { reqId }, {}, undefined as never);

describe('a request logger made on first use', () => {
  it('makes no child logger for a request that logs nothing', () => {
    const { logger, children } = recordingLogger();
    const log = childOf(logger, 'r1');
    expect(log.level).toBe('info');
    expect(children()).toBe(0);
  });

  it('logs through one child bound to the request id', async () => {
    const { logger, lines, children } = recordingLogger();
    const log = childOf(logger, 'r2');
    log.info({ status: 404 }, 'Trial not found');
    log.error({ err: new Error('boom') }, 'request failed');
    log.debug('below the level');
    await new Promise((r) => setImmediate(r));
    expect(children()).toBe(1);
    expect(lines.map((l) => [l.reqId, l.msg])).toEqual([
      ['r2', 'Trial not found'],
      ['r2', 'request failed'],
    ]);
    expect(lines[0]!.status).toBe(404);
    expect((lines[1]!.err as { message: string }).message).toBe('boom');
  });

  it("takes a route's own level", async () => {
    const { logger, lines } = recordingLogger();
    const log = lazyChildLogger.call(
      undefined as never,
      logger,
      { reqId: 'r3' },
      { level: 'debug' },
      undefined as never,
    );
    expect(log.level).toBe('debug');
    log.debug('now shown');
    await new Promise((r) => setImmediate(r));
    expect(lines.map((l) => l.msg)).toEqual(['now shown']);
  });
});
