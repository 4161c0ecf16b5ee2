import { z } from 'zod';

/** Record ids in paths and bodies: PostgreSQL `integer` keys, so 1 … 2³¹−1 (a larger one is a 400, never a 500). */
export const MAX_ID = 2_147_483_647;

/**
 * An id written as text (a path segment, a query value, a string in a body):
 * decimal digits only, no sign, no leading zero, no space — so `" 1"`,
 * `"+1"`, `"01"`, `"0x10"`, `"1e3"`, `"1.0"` are refused, where
 * `z.coerce.number()` took them (Number(" 1") is 1, Number("0x10") is 16).
 */
export const DECIMAL_ID = /^[1-9][0-9]*$/;

/**
 * The one id schema, with the message of its refusals: a JSON integer in
 * 1 … MAX_ID, or its decimal text. Too large is always 'Invalid id'.
 */
export function idSchemaWith(message: string) {
  const id = z.number({ error: message }).int(message).positive(message).max(MAX_ID, 'Invalid id');
  const text = z
    .string({ error: message })
    .regex(DECIMAL_ID, message)
    .pipe(z.coerce.number<string>().pipe(id));
  return z.union([id, text], { error: message });
}

/** Every record id of the API: paths, query strings and bodies alike. */
export const idSchema = idSchemaWith('Invalid id');
