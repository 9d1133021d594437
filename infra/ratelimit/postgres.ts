/**
 * Fixed-window rate limiter whose state lives in PostgreSQL, so every API
 * process shares one count. One statement per request: an
 * `INSERT ... ON CONFLICT DO UPDATE ... WHERE count < limit RETURNING` over
 * all of the caller's windows (e.g. minute and day), plus, in the same
 * statement, the credential's last-use time. A window that is full is not
 * incremented and does not come back from RETURNING; if any window refused,
 * the windows that did count this request are decremented again, so a
 * refused request consumes nothing.
 */
import type { Knex } from 'knex';

export interface LimitWindow {
  /** Label used in headers (`minute`, `hour`, `day`). */
  name: string;
  seconds: number;
  limit: number;
}

export interface WindowState {
  name: string;
  seconds: number;
  limit: number;
  remaining: number;
  /** Unix epoch seconds at which the window resets. */
  reset: number;
}

export interface RateDecision {
  allowed: boolean;
  windows: WindowState[];
  /** The window a client should look at: the refusing one, else the one with the fewest requests left. */
  binding: WindowState;
  /** Seconds until the refusing window resets (only when refused). */
  retryAfter?: number;
}

export interface HitOptions {
  /** Credential whose last_used_at is set in the same statement. */
  credentialId?: string;
  /** Clock, ms (tests). */
  now?: number;
}

export class PostgresRateLimiter {
  private calls = 0;
  constructor(private readonly db: Knex) {}

  /** Counts one request of `bucket` against every window. */
  async hit(bucket: string, windows: LimitWindow[], opts: HitOptions = {}): Promise<RateDecision> {
    if (windows.length === 0) throw new Error('hit needs at least one window');
    const nowMs = opts.now ?? Date.now();
    const nowS = Math.floor(nowMs / 1000);
    const rows = windows.map((w) => {
      const start = Math.floor(nowS / w.seconds) * w.seconds;
      return { w, key: `${bucket}:${w.name}`, start, end: start + w.seconds };
    });
    const values = rows.map(() => '(?, ?, 1, ?, ?)').join(', ');
    const params: (string | number)[] = rows.flatMap((r) => [r.key, r.start, r.w.limit, r.end]);
    const touch = opts.credentialId
      ? `, touch AS (INSERT INTO credential_last_used (credential_id, last_used_at) VALUES (?, to_timestamp(?::double precision / 1000))
           ON CONFLICT (credential_id) DO UPDATE SET last_used_at = greatest(credential_last_used.last_used_at, EXCLUDED.last_used_at))`
      : '';
    if (opts.credentialId) params.push(opts.credentialId, nowMs);
    const sql = `WITH hit AS (
        INSERT INTO rate_limit_counters (bucket, window_start, count, limit_value, expires_at) VALUES ${values}
        ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limit_counters.count + 1, limit_value = EXCLUDED.limit_value
        WHERE rate_limit_counters.count < EXCLUDED.limit_value
        RETURNING bucket, count)${touch}
      SELECT bucket, count FROM hit`;
    const res = await this.db.raw(sql, params);
    const counted = new Map<string, number>(
      res.rows.map((r: { bucket: string; count: number }) => [r.bucket, r.count]),
    );
    const allowed = rows.every((r) => counted.has(r.key));
    if (!allowed && counted.size) {
      const back = rows.filter((r) => counted.has(r.key));
      await this.db.raw(
        `UPDATE rate_limit_counters SET count = count - 1 WHERE (bucket, window_start) IN (${back.map(() => '(?, ?)').join(', ')})`,
        back.flatMap((r) => [r.key, r.start]),
      );
    }
    const states: WindowState[] = rows.map((r) => {
      const used = counted.get(r.key);
      // A refused request leaves the counts as they were: the refusing window is full, the others lose the hit again.
      const remaining = used === undefined ? 0 : allowed ? r.w.limit - used : r.w.limit - used + 1;
      return {
        name: r.w.name,
        seconds: r.w.seconds,
        limit: r.w.limit,
        remaining: Math.max(0, remaining),
        reset: r.end,
      };
    });
    const refusing = rows
      .map((r, i) => (counted.has(r.key) ? undefined : states[i]))
      .filter((s): s is WindowState => !!s);
    // The longest refusing window decides how long to wait.
    const binding = refusing.length
      ? refusing.reduce((a, b) => (b.reset > a.reset ? b : a))
      : states.reduce((a, b) =>
          b.remaining < a.remaining || (b.remaining === a.remaining && b.seconds < a.seconds) ? b : a,
        );
    if (++this.calls % 1000 === 0) void this.cleanup(nowS).catch(() => undefined);
    return { allowed, windows: states, binding, ...(allowed ? {} : { retryAfter: Math.max(1, binding.reset - nowS) }) };
  }

  /** Deletes counters of windows that have ended. */
  async cleanup(nowS = Math.floor(Date.now() / 1000)): Promise<number> {
    return this.db('rate_limit_counters').where('expires_at', '<', nowS).delete();
  }
}

/** Last use of each credential id (absent ids have never been used). */
export async function lastUsed(db: Knex, credentialIds: string[]): Promise<Map<string, string>> {
  if (credentialIds.length === 0) return new Map();
  const rows = await db('credential_last_used').whereIn('credential_id', credentialIds);
  return new Map(
    rows.map((r: { credential_id: string; last_used_at: Date }) => [
      r.credential_id,
      new Date(r.last_used_at).toISOString(),
    ]),
  );
}
