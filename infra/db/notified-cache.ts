/**
 * A per-process cache of values read from PostgreSQL, kept fresh by
 * PostgreSQL's LISTEN/NOTIFY (docs/api.md, "Caches fed by notifications").
 *
 * Each entry carries tags (what can change it: an identity stream, a
 * projection row). A writer announces a change with `NOTIFY <channel>,
 * '<schema> <tag>'` in the transaction that makes it (delivered when it
 * commits, never for a rollback); every process drops the entries of that
 * tag at once. `'<schema> *'` drops everything (a projection rebuilt by
 * replay). The cache is used only while its LISTEN connection is up: on a
 * loss it is emptied and bypassed until LISTEN is back (then emptied again,
 * as notifications may have been missed). A read that overlapped a
 * notification of one of its tags is not cached (generation tickets), and
 * every entry expires after `ttlMs` as a backstop. The process that made a
 * change can drop its own entries before its request answers (`invalidate`),
 * without waiting for its notification to come back.
 */
import type { Knex } from 'knex';
import { PgListener } from './listen';

interface Entry<V> {
  value: V;
  expiresAt: number;
  tags: string[];
}

export interface NotifiedCacheOptions {
  /** The NOTIFY channel its writers announce changes on. */
  channel: string;
  /** How long an entry is kept, ms (0: no cache). */
  ttlMs: number;
  /** Most entries kept (oldest go first). */
  maxEntries?: number;
  onError?(e: Error): void;
}

/** Drops every entry (a payload's tag). */
export const ALL_TAGS = '*';

export class NotifiedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly byTag = new Map<string, Set<string>>();
  private generation = 0;
  /** Tags notified lately, with the generation of their last notification (a read that overlapped one of its tags' notifications must not be cached). */
  private readonly recent = new Map<string, number>();
  /** Generations at or below this have been forgotten from `recent`. */
  private floor = 0;
  private live = false;
  private schema?: string;
  private listener?: PgListener;
  private readonly maxEntries: number;
  /** Notifications of this schema seen, and reads answered from memory (tests, diagnostics). */
  notifications = 0;
  hits = 0;

  constructor(private readonly opts: NotifiedCacheOptions) {
    this.maxEntries = opts.maxEntries ?? 50_000;
  }

  /** Starts listening on `db`'s database; the cache works once LISTEN is in place. */
  listen(db: Knex): this {
    if (this.opts.ttlMs <= 0 || this.listener) return this;
    this.listener = new PgListener(db, this.opts.channel, {
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

  /** Entries held now. */
  get size(): number {
    return this.entries.size;
  }

  /** The token for a later `set`, taken before the read: a notification of one of its tags in between voids it. */
  ticket(): number {
    return this.generation;
  }

  get(key: string, nowMs: number): V | undefined {
    if (!this.live) return undefined;
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expiresAt <= nowMs) {
      this.drop(key);
      return undefined;
    }
    this.hits++;
    return e.value;
  }

  set(key: string, ticket: number, value: V, tags: string[], nowMs: number): void {
    if (!this.live || ticket < this.floor) return;
    if (ticket !== this.generation && tags.some((t) => (this.recent.get(t) ?? -1) > ticket)) return;
    this.drop(key);
    if (this.entries.size >= this.maxEntries) this.drop(this.entries.keys().next().value!);
    this.entries.set(key, { value, tags, expiresAt: nowMs + this.opts.ttlMs });
    for (const t of tags) {
      let keys = this.byTag.get(t);
      if (!keys) this.byTag.set(t, (keys = new Set()));
      keys.add(key);
    }
  }

  /** Drops the entries of `tags` now (changes this process has just made), as their notifications would. */
  invalidate(tags: readonly string[]): void {
    for (const t of tags) this.changed(t);
  }

  private onNotify(payload: string): void {
    const sp = payload.indexOf(' ');
    // Another schema of the same database (tests, benchmarks) is another platform.
    if (sp < 0 || payload.slice(0, sp) !== this.schema) return;
    this.notifications++;
    const tag = payload.slice(sp + 1);
    if (tag === ALL_TAGS) this.clear();
    else this.changed(tag);
  }

  private changed(tag: string): void {
    this.generation++;
    this.recent.delete(tag);
    this.recent.set(tag, this.generation);
    if (this.recent.size > 10_000) {
      const [oldest, gen] = this.recent.entries().next().value!;
      this.recent.delete(oldest);
      this.floor = gen;
    }
    const keys = this.byTag.get(tag);
    if (keys) for (const k of [...keys]) this.drop(k);
  }

  private drop(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    for (const t of e.tags) {
      const keys = this.byTag.get(t);
      keys?.delete(key);
      if (keys?.size === 0) this.byTag.delete(t);
    }
  }

  private clear(): void {
    this.generation++;
    this.floor = this.generation;
    this.recent.clear();
    this.entries.clear();
    this.byTag.clear();
  }

  async close(): Promise<void> {
    await this.listener?.close();
    this.listener = undefined;
  }
}
