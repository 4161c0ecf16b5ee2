/*
 * Provider answers of interactive reads, shared for a short time (issue #21
 * §3): identical reads in flight (same link, same query) make one provider
 * call and every caller gets its answer (or its failure); a successful
 * answer is kept for ANSWER_TTL_MS (60 s), so a page reload or a second
 * chart of the same range costs no call. Failures are never kept.
 *
 * Per process and in memory: bounded by entries (LRU) and by the answers'
 * JSON size. Several servers each keep their own (a reload that reaches
 * another server may call once more: the shared budget in PostgreSQL still
 * counts every call, so nothing is ever over-spent, only under-shared).
 * Keys are the link's id (participant device) and API (a legacy Fitbit link
 * moved to the Google Health API keeps its id, and each API's answers have
 * their own shape), the resource and its parameters: a link's answers are only read after the caller's access to
 * the participant was checked, so sharing them is sharing the provider's
 * answer to the same question.
 */
import type { DataQuery, ProviderAnswer } from './types.js';

export const ANSWER_TTL_MS = 60_000;
const MAX_ENTRIES = 500;
/** About 32 MiB of JSON text (an intraday day at 1 s is the largest answer, a few MiB). */
const MAX_BYTES = 32 * 1024 * 1024;

interface Entry {
  at: number;
  bytes: number;
  answer: ProviderAnswer;
}

export class AnswerCache {
  private entries = new Map<string, Entry>();
  private inFlight = new Map<string, Promise<ProviderAnswer>>();
  private bytes = 0;

  constructor(
    private readonly now: () => Date,
    private readonly limits = { ttlMs: ANSWER_TTL_MS, maxEntries: MAX_ENTRIES, maxBytes: MAX_BYTES },
  ) {}

  static key(linkId: number, api: string, query: DataQuery): string {
    const params = Object.keys(query.params)
      .sort()
      .map((k) => `${k}=${query.params[k]}`)
      .join('&');
    return `${linkId}|${api}|${query.resource}|${params}`;
  }

  /** A fresh answer, if kept (and then the most recently used). */
  get(key: string): ProviderAnswer | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (this.now().getTime() - e.at >= this.limits.ttlMs) {
      this.drop(key, e);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.answer;
  }

  /**
   * The kept answer, or the call in flight for the same key, or `load()`
   * (then kept if it succeeds). `load` throws for failures: they reach every
   * caller waiting on it and are not kept.
   */
  async read(key: string, load: () => Promise<ProviderAnswer>): Promise<ProviderAnswer> {
    const kept = this.get(key);
    if (kept) return kept;
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const p = load().then((answer) => {
      this.put(key, answer);
      return answer;
    });
    this.inFlight.set(key, p);
    try {
      return await p;
    } finally {
      this.inFlight.delete(key);
    }
  }

  private put(key: string, answer: ProviderAnswer) {
    if (answer.status < 200 || answer.status >= 300) return;
    const bytes = JSON.stringify(answer.body)?.length ?? 0;
    if (bytes > this.limits.maxBytes / 4) return; // one answer never takes most of the room
    const old = this.entries.get(key);
    if (old) this.drop(key, old);
    this.entries.set(key, { at: this.now().getTime(), bytes, answer });
    this.bytes += bytes;
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.limits.maxEntries && this.bytes <= this.limits.maxBytes) break;
      this.drop(k, e);
    }
  }

  private drop(key: string, e: Entry) {
    this.entries.delete(key);
    this.bytes -= e.bytes;
  }

  /** Forget every kept answer (tests of the provider's own answers start from a cold cache). */
  clear() {
    this.entries.clear();
    this.bytes = 0;
  }

  get size() {
    return this.entries.size;
  }
}

const caches = new WeakMap<object, AnswerCache>();

/** The process's cache of one app (keyed by its provider registry: each test app has its own). */
export function answerCacheOf(ctx: { providers: object; now: () => Date }): AnswerCache {
  let c = caches.get(ctx.providers);
  if (!c) {
    c = new AnswerCache(ctx.now);
    caches.set(ctx.providers, c);
  }
  return c;
}
