/**
 * What PostgreSQL's errors mean to the code outside infra/: callers ask these
 * questions instead of comparing SQLSTATE codes themselves.
 */

/** SQLSTATE of a PostgreSQL error, when it is one. */
export const sqlState = (e: unknown): string | undefined =>
  typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string'
    ? (e as { code: string }).code
    : undefined;

/**
 * PostgreSQL broke a deadlock by rolling this transaction back (40P01): nothing it did is kept, so running the whole
 * transaction again is safe and will normally succeed.
 */
export const isDeadlock = (e: unknown): boolean => sqlState(e) === '40P01';
