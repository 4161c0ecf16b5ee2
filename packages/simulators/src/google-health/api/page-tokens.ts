/*
 * Page tokens and page sizes of the v4 calls: opaque tokens bound to the
 * request they continue (other parameters must not change).
 */
import { createHash } from 'node:crypto';
import { bad } from './route-kit.js';

/** Opaque page tokens bound to the request they continue (other parameters must not change). */
export function encodeToken(binding: string, position: object) {
  return Buffer.from(JSON.stringify({ b: binding, ...position })).toString('base64url');
}
export function decodeToken<T>(token: string, binding: string): T {
  try {
    const v = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { b?: string } & T;
    if (v.b === binding) return v;
  } catch {
    // fall through
  }
  throw bad('Invalid page token: it does not belong to this request, or other parameters changed.');
}
export const bindingOf = (...parts: unknown[]) =>
  createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);

export function pageSizeOf(raw: unknown, dflt: number, max: number): number {
  if (raw === undefined || raw === '' || raw === null) return dflt;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw bad(`Invalid value for pageSize: ${String(raw)}`);
  return n === 0 ? dflt : Math.min(n, max);
}
