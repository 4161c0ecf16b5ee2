/*
 * What the simulators' HTTP conformance tests share. Not part of the build
 * (tsconfig excludes it); type-checked with the tests (tsconfig.test.json).
 */

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, their shape is what the assertions check
export type Json = any;

/** An answer whose JSON body is typed loosely (Node's fetch types it `unknown`). */
export type JsonResponse = Omit<Response, 'json'> & { json(): Promise<Json> };

/** fetch, answering a JsonResponse. */
export const http = (url: string | URL, init?: RequestInit) => fetch(url, init) as Promise<JsonResponse>;
