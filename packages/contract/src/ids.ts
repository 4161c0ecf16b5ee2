import { z } from 'zod';

/** Record ids in paths and bodies: PostgreSQL `integer` keys, so 1 … 2³¹−1 (a larger one is a 400, never a 500). */
export const MAX_ID = 2_147_483_647;
export const idSchema = z.coerce
  .number({ message: 'Invalid id' })
  .int('Invalid id')
  .positive('Invalid id')
  .max(MAX_ID, 'Invalid id');
