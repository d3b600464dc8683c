import { z } from 'zod';

/**
 * An id of a Postgres `integer` column (agencies). Bounded by the column's range, so that
 * `2147483648` or `1e308` is a 400 `validation-failed` like any other bad id, not a database
 * error.
 */
export const maxIntegerId = 2_147_483_647;
export const IntegerId = z.number().int().positive().max(maxIntegerId);
/** The same in a path or query string. */
export const IntegerIdParam = z.coerce.number().int().positive().max(maxIntegerId);
