/**
 * Fixed-window rate limiter shared by every API process through PostgreSQL,
 * without a PostgreSQL write per request: each process LEASES a slice of a
 * window's quota and counts requests locally (docs/api.md, "Rate limits").
 *
 *   - The shared row (bucket, window start) counts the units handed out to
 *     processes, never more than the window's limit: one conditional
 *     `INSERT ... ON CONFLICT DO UPDATE` grants `least(wanted, limit - count)`
 *     units and records the grant in the same row (`last_grant`), so a process
 *     learns what it got from RETURNING.
 *   - A request is allowed when every one of the caller's windows (e.g. minute
 *     and day) has a leased unit left in this process; it takes one unit from
 *     each. A refused request takes nothing.
 *   - A lease is `max(1, min(maxLease, limit / 20, what the window had left / 4))`
 *     units, so small limits lease one unit at a time (exact) and a busy
 *     caller costs one statement per slice instead of one per request.
 *   - Units a process did not use go back to the row after `returnIdleMs`
 *     without use (and on close), so another process can use them.
 *
 * Accuracy: the rows never hand out more than the limit, so a caller never
 * gets more than `limit` requests in a window across all processes
 * (overshoot 0). The price is early refusal: a process may refuse while other
 * processes still hold unused units, at most (processes − 1) × (lease − 1)
 * requests, and only until those units are returned (idle) or the window ends.
 * With one process the limiter is exact. `RateLimit` headers show the
 * remaining count as this process last saw the row, minus its own use.
 *
 * Credential last use (`credential_last_used`) is written at most once per
 * `touchEveryMs` per credential and process, inside the next lease statement
 * or on its own, never waiting on the request.
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
  /** Credential whose last use is recorded. */
  credentialId?: string;
  /** Clock, ms (tests). */
  now?: number;
}

export interface LimiterOptions {
  /** Most units one lease takes (default 100). */
  maxLease?: number;
  /** Unused units go back to the shared row after this long without use, ms (default 500). */
  returnIdleMs?: number;
  /** A credential's last use is written at most this often per process, ms (default 30 s). */
  touchEveryMs?: number;
}

interface Lease {
  key: string;
  start: number;
  end: number;
  limit: number;
  granted: number;
  used: number;
  /** The row's count after our last grant (units handed out to all processes). */
  rowCount: number;
  lastUseMs: number;
  /** The row was full when last asked: do not ask again before this time (a flood of refused requests). */
  fullUntilMs: number;
  /** A lease statement in flight for this key: concurrent requests wait for it instead of sending their own. */
  pending?: Promise<void>;
}

interface Slot {
  w: LimitWindow;
  key: string;
  start: number;
  end: number;
}

/** The fraction of a limit one lease may take at most (1/20 = 5 %). */
const LEASE_DIVISOR = 20;
/** How long a row found full is not asked again by this process, ms. */
const FULL_PAUSE_MS = 50;

export class PostgresRateLimiter {
  private readonly leases = new Map<string, Lease>();
  private readonly touched = new Map<string, number>();
  private readonly dueTouches = new Map<string, number>();
  private sweeper?: NodeJS.Timeout;
  private readonly maxLease: number;
  private readonly returnIdleMs: number;
  private readonly touchEveryMs: number;
  private closed = false;

  constructor(
    private readonly db: Knex,
    opts: LimiterOptions = {},
  ) {
    this.maxLease = Math.max(1, opts.maxLease ?? 100);
    this.returnIdleMs = opts.returnIdleMs ?? 500;
    this.touchEveryMs = opts.touchEveryMs ?? 30_000;
  }

  /** Counts one request of `bucket` against every window. */
  async hit(bucket: string, windows: LimitWindow[], opts: HitOptions = {}): Promise<RateDecision> {
    if (windows.length === 0) throw new Error('hit needs at least one window');
    const nowMs = opts.now ?? Date.now();
    const nowS = Math.floor(nowMs / 1000);
    const slots: Slot[] = windows.map((w) => {
      const start = Math.floor(nowS / w.seconds) * w.seconds;
      return { w, key: `${bucket}:${w.name}`, start, end: start + w.seconds };
    });
    if (opts.credentialId) this.noteUse(opts.credentialId, nowMs);
    // Top up every window that has no unit left here (one statement for all of them). A statement of another
    // request in flight for the same window is waited for, then looked at again; this request asks each window at
    // most once, and a window whose row was just found full is not asked again for FULL_PAUSE_MS.
    const asked = new Set<Lease>();
    for (;;) {
      const waits: Promise<void>[] = [];
      const need: Lease[] = [];
      for (const s of slots) {
        const l = this.leaseOf(s, nowMs);
        if (l.used < l.granted) continue;
        if (l.pending) waits.push(l.pending);
        else if (!asked.has(l) && nowMs >= l.fullUntilMs) need.push(l);
      }
      if (need.length) {
        for (const l of need) asked.add(l);
        await this.acquire(need, nowS, nowMs);
      } else if (waits.length) await Promise.all(waits);
      else break;
    }
    const leases = slots.map((s) => this.leaseOf(s, nowMs));
    const allowed = leases.every((l) => l.used < l.granted);
    if (allowed)
      for (const l of leases) {
        l.used++;
        l.lastUseMs = nowMs;
      }
    const states: WindowState[] = slots.map((s, i) => {
      const l = leases[i];
      return {
        name: s.w.name,
        seconds: s.w.seconds,
        limit: s.w.limit,
        remaining: Math.max(0, s.w.limit - l.rowCount + (l.granted - l.used)),
        reset: s.end,
      };
    });
    const refusing = states.filter((_, i) => leases[i].used >= leases[i].granted && !allowed);
    // The longest refusing window decides how long to wait.
    const binding = refusing.length
      ? refusing.reduce((a, b) => (b.reset > a.reset ? b : a))
      : states.reduce((a, b) =>
          b.remaining < a.remaining || (b.remaining === a.remaining && b.seconds < a.seconds) ? b : a,
        );
    this.startSweeper();
    return { allowed, windows: states, binding, ...(allowed ? {} : { retryAfter: Math.max(1, binding.reset - nowS) }) };
  }

  /** The lease of this window in this process; one of an earlier window is forgotten (its units are void). */
  private leaseOf(s: Slot, nowMs: number): Lease {
    let l = this.leases.get(s.key);
    if (!l || l.start !== s.start) {
      // A statement still in flight for the old window updates the old object only: its units are void.
      l = {
        key: s.key,
        start: s.start,
        end: s.end,
        limit: s.w.limit,
        granted: 0,
        used: 0,
        rowCount: 0,
        lastUseMs: nowMs,
        fullUntilMs: 0,
      };
      this.leases.set(s.key, l);
    }
    l.limit = s.w.limit;
    return l;
  }

  private wanted(l: Lease): number {
    const left = l.granted === 0 && l.rowCount === 0 ? l.limit : l.limit - l.rowCount;
    return Math.max(1, Math.min(this.maxLease, Math.floor(l.limit / LEASE_DIVISOR), Math.floor(left / 4)));
  }

  /** One statement: asks the shared rows for a slice of each lease's window (plus due last-use writes). */
  private async acquire(need: Lease[], nowS: number, nowMs: number): Promise<void> {
    const asks = need.map((l) => ({ l, n: this.wanted(l) }));
    const work = (async () => {
      const values = asks.map(() => '(?, ?, ?, ?, ?, ?)').join(', ');
      const params: (string | number)[] = asks.flatMap(({ l, n }) => [l.key, l.start, n, l.limit, l.end, n]);
      const touches = this.takeDueTouches();
      let touch = '';
      if (touches.length) {
        touch = `, touch AS (${TOUCH_SQL(touches.length)})`;
        for (const [id, ms] of touches) params.push(id, ms);
      }
      // count/limit_value: on insert the grant is least(wanted, limit); on update it is what the row still has.
      const res = await this.db.raw(
        `WITH grant_rows AS (
           INSERT INTO rate_limit_counters AS c (bucket, window_start, count, limit_value, expires_at, last_grant)
           SELECT v.b, v.s::bigint, least(v.n::int, v.l::int), v.l::int, v.e::bigint, least(v.g::int, v.l::int)
             FROM (VALUES ${values}) AS v(b, s, n, l, e, g)
           ON CONFLICT (bucket, window_start) DO UPDATE
             SET count = c.count + least(EXCLUDED.last_grant, greatest(0, EXCLUDED.limit_value - c.count)),
                 last_grant = least(EXCLUDED.last_grant, greatest(0, EXCLUDED.limit_value - c.count)),
                 limit_value = EXCLUDED.limit_value
           RETURNING bucket, count, last_grant)${touch}
         SELECT bucket, count, last_grant FROM grant_rows`,
        params,
      );
      const got = new Map<string, { count: number; last_grant: number }>(
        res.rows.map((r: { bucket: string; count: number; last_grant: number }) => [r.bucket, r]),
      );
      for (const { l } of asks) {
        const r = got.get(l.key);
        if (!r) continue;
        // Units of this lease not used yet stay usable: a top-up adds to them.
        l.granted += r.last_grant;
        l.rowCount = r.count;
        if (r.last_grant === 0) l.fullUntilMs = nowMs + FULL_PAUSE_MS;
      }
    })();
    const settled = work.finally(() => {
      for (const { l } of asks) if (l.pending === settled) l.pending = undefined;
    });
    for (const { l } of asks) l.pending = settled;
    await settled;
    if (Math.random() < 0.001) void this.cleanup(nowS).catch(() => undefined);
  }

  private noteUse(credentialId: string, nowMs: number): void {
    const last = this.touched.get(credentialId);
    if (last !== undefined && nowMs - last < this.touchEveryMs) return;
    this.touched.set(credentialId, nowMs);
    this.dueTouches.set(credentialId, nowMs);
    // Written by the next lease statement, or by the sweeper within returnIdleMs when no lease is needed.
  }

  private takeDueTouches(): [string, number][] {
    const all = [...this.dueTouches];
    this.dueTouches.clear();
    return all;
  }

  private startSweeper(): void {
    if (this.sweeper || this.closed) return;
    this.sweeper = setInterval(
      () => void this.sweep(Date.now()).catch(() => undefined),
      Math.max(50, Math.min(this.returnIdleMs, 1000)),
    );
    this.sweeper.unref();
  }

  /** Returns unused units of idle leases, forgets ended windows, writes due last-use times. */
  async sweep(nowMs = Date.now(), returnAll = false): Promise<void> {
    const nowS = Math.floor(nowMs / 1000);
    const back: Lease[] = [];
    for (const l of this.leases.values()) {
      if (l.pending) continue;
      if (l.end <= nowS) {
        this.leases.delete(l.key);
        continue;
      }
      if (l.granted > l.used && (returnAll || nowMs - l.lastUseMs >= this.returnIdleMs)) back.push(l);
    }
    const touches = this.takeDueTouches();
    if (back.length) {
      const amounts = back.map((l) => l.granted - l.used);
      for (const l of back) {
        l.rowCount -= l.granted - l.used;
        l.granted = l.used;
      }
      await this.db.raw(
        `UPDATE rate_limit_counters c SET count = greatest(0, c.count - v.n::int)
           FROM (VALUES ${back.map(() => '(?, ?, ?)').join(', ')}) AS v(b, s, n)
          WHERE c.bucket = v.b AND c.window_start = v.s::bigint`,
        back.flatMap((l, i) => [l.key, l.start, amounts[i]]),
      );
    }
    if (touches.length) await this.db.raw(TOUCH_SQL(touches.length), touches.flat());
    if (this.leases.size === 0 && this.dueTouches.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  /** Gives every unused unit back now (tests: the shared rows then count exactly the requests allowed). */
  async returnUnused(): Promise<void> {
    await this.sweep(Date.now(), true);
  }

  /** Gives every unused unit back and writes due last-use times (shutdown, tests). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
    await this.sweep(Date.now(), true);
  }

  /** Deletes counters of windows that have ended. */
  async cleanup(nowS = Math.floor(Date.now() / 1000)): Promise<number> {
    return this.db('rate_limit_counters').where('expires_at', '<', nowS).delete();
  }
}

const TOUCH_SQL = (n: number) =>
  `INSERT INTO credential_last_used (credential_id, last_used_at)
   SELECT v.id, to_timestamp(v.ms::double precision / 1000) FROM (VALUES ${Array(n).fill('(?, ?)').join(', ')}) AS v(id, ms)
   ON CONFLICT (credential_id) DO UPDATE SET last_used_at = greatest(credential_last_used.last_used_at, EXCLUDED.last_used_at)`;

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
