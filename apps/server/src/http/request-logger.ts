/*
 * `request.log` made only when a request logs something. Fastify gives every
 * request a pino child logger (bound to its request id); making one, with
 * the redaction paths applied to its bindings, was ~1.5 % of a profile of
 * the server under load on the trial page's list (bench/load, decision 050),
 * and most requests never log through it: the line every
 * request leaves is written by the onResponse hook (app.ts). A request that
 * does log (an error, a refusal) gets the same child, made on first use.
 */
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Bindings, ChildLoggerOptions, LevelWithSilentOrString } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type Args = Parameters<FastifyBaseLogger['info']>;

class LazyChildLogger {
  #child: FastifyBaseLogger | undefined;
  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    this.#child ??= this.parent.child(this.bindings, this.options);
    return this.#child;
  }

  private log(level: Level, args: Args) {
    this.logger[level](...args);
  }

  get level(): LevelWithSilentOrString {
    return this.#child?.level ?? this.options.level ?? this.parent.level;
  }
  set level(level: LevelWithSilentOrString) {
    this.logger.level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
  fatal(...args: Args) {
    this.log('fatal', args);
  }
  error(...args: Args) {
    this.log('error', args);
  }
  warn(...args: Args) {
    this.log('warn', args);
  }
  info(...args: Args) {
    this.log('info', args);
  }
  debug(...args: Args) {
    this.log('debug', args);
  }
  trace(...args: Args) {
    this.log('trace', args);
  }
  silent() {}
}

/** Fastify's `childLoggerFactory`: a child logger that is made on its first use. */
export const lazyChildLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  bindings,
  options,
) => new LazyChildLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
