import { z } from 'zod';

/** Ids in paths and bodies: PostgreSQL `integer` keys, so at most 2³¹−1 (a larger one is a 400, not a 500). */
export const idSchema = z.coerce.number().int().positive().max(2_147_483_647);
