/**
 * Verified credentials, cached in each API process (docs/api.md,
 * "Credentials"). A hit costs no PostgreSQL round trip; the entry holds the
 * credential's and its user's state, so expiry, rotation grace and a plan's
 * end date are still judged against the clock on every request.
 *
 * Freshness: every event appended to an identity stream (user-, apikey-,
 * session-, oauthtoken-) makes PostgreSQL send `NOTIFY identity_changes` when
 * it commits (a trigger on es_events: infra/db/migrations/0050_api_speed.ts),
 * whoever appended it and whether or not the projector runs. Each process
 * LISTENs and drops the entries of that stream at once. The cache is used
 * only while the LISTEN connection is up: on a loss it is emptied and
 * bypassed until LISTEN is back (then emptied again, as notifications may
 * have been missed). A lookup that overlapped a notification of one of its
 * streams is not cached (generation check), and every entry expires after `ttlMs` as a backstop.
 * So a revocation, rotation, session end or plan change takes effect in every
 * API process when the notification arrives (milliseconds after the commit),
 * and never later than `ttlMs`; in the process that appended it, before its
 * request answers (the event store's commit hook calls `forget`).
 */
import type { Knex } from 'knex';
import type { CredentialKind, CredentialState, UserState } from '../../domain/identity';
import { PgListener } from '../../infra/db/listen';
import { IDENTITY_CHANNEL } from '../../infra/db/migrations/0050_api_speed';

export interface CachedCredential {
  credential: CredentialState;
  user: UserState;
}

interface Entry extends CachedCredential {
  expiresAt: number;
  streams: string[];
}

export interface CredentialCacheOptions {
  /** How long a verified credential is kept, ms (0: no cache). */
  ttlMs: number;
  /** Most entries kept (oldest go first). */
  maxEntries?: number;
  onError?(e: Error): void;
}

export class CredentialCache {
  private readonly entries = new Map<string, Entry>();
  private readonly byStream = new Map<string, Set<string>>();
  private generation = 0;
  /** Streams notified lately, with the generation of their last notification (a lookup that overlapped one of its streams' notifications must not be cached). */
  private readonly recent = new Map<string, number>();
  /** Generations at or below this have been forgotten from `recent`. */
  private floor = 0;
  private live = false;
  private schema?: string;
  private listener?: PgListener;
  private readonly maxEntries: number;
  /** Notifications of this schema seen, and lookups answered from memory (tests, diagnostics). */
  notifications = 0;
  hits = 0;

  constructor(private readonly opts: CredentialCacheOptions) {
    this.maxEntries = opts.maxEntries ?? 50_000;
  }

  /** Starts listening for identity changes on `db`'s database; the cache works once LISTEN is in place. */
  listen(db: Knex): this {
    if (this.opts.ttlMs <= 0 || this.listener) return this;
    this.listener = new PgListener(db, IDENTITY_CHANNEL, {
      onNotify: (payload) => this.onNotify(payload),
      onLive: (live, schema) => {
        this.clear();
        this.live = live;
        if (schema) this.schema = schema;
      },
      onError: this.opts.onError,
    }).start();
    return this;
  }

  /** Whether the cache is in use (LISTEN connected). */
  get active(): boolean {
    return this.live;
  }

  /** The token for a later `set`: a notification in between voids it. */
  ticket(): number {
    return this.generation;
  }

  get(key: string, nowMs: number): CachedCredential | undefined {
    if (!this.live) return undefined;
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expiresAt <= nowMs) {
      this.drop(key);
      return undefined;
    }
    this.hits++;
    return e;
  }

  set(key: string, ticket: number, value: CachedCredential, streams: string[], nowMs: number): void {
    if (!this.live || ticket < this.floor) return;
    if (ticket !== this.generation && streams.some((s) => (this.recent.get(s) ?? -1) > ticket)) return;
    this.drop(key);
    if (this.entries.size >= this.maxEntries) this.drop(this.entries.keys().next().value!);
    this.entries.set(key, { ...value, streams, expiresAt: nowMs + this.opts.ttlMs });
    for (const s of streams) {
      let keys = this.byStream.get(s);
      if (!keys) this.byStream.set(s, (keys = new Set()));
      keys.add(key);
    }
  }

  private onNotify(payload: string): void {
    const sp = payload.indexOf(' ');
    // Another schema of the same database (tests, benchmarks) is another platform.
    if (sp < 0 || payload.slice(0, sp) !== this.schema) return;
    this.notifications++;
    this.changed(payload.slice(sp + 1));
  }

  /**
   * Streams this process has just appended to (the event store's commit hook):
   * their entries go at once, so the request that revoked or rotated a
   * credential is answered only after this process has forgotten it. Other
   * processes learn of it by NOTIFY.
   */
  forget(streamIds: readonly string[]): void {
    for (const s of streamIds) if (IDENTITY_STREAM.test(s)) this.changed(s);
  }

  private changed(stream: string): void {
    this.generation++;
    this.recent.delete(stream);
    this.recent.set(stream, this.generation);
    if (this.recent.size > 10_000) {
      const [oldest, gen] = this.recent.entries().next().value!;
      this.recent.delete(oldest);
      this.floor = gen;
    }
    const keys = this.byStream.get(stream);
    if (keys) for (const k of [...keys]) this.drop(k);
  }

  private drop(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    for (const s of e.streams) {
      const keys = this.byStream.get(s);
      keys?.delete(key);
      if (keys?.size === 0) this.byStream.delete(s);
    }
  }

  private clear(): void {
    this.generation++;
    this.floor = this.generation;
    this.recent.clear();
    this.entries.clear();
    this.byStream.clear();
  }

  async close(): Promise<void> {
    await this.listener?.close();
    this.listener = undefined;
  }
}

/** The streams whose events can change a verified credential (the trigger of 0050_api_speed notifies the same). */
const IDENTITY_STREAM = /^(user|apikey|session|oauthtoken)-/;

export const cacheKey = (kind: CredentialKind, hash: string) => `${kind}:${hash}`;
