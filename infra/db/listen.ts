/**
 * One PostgreSQL LISTEN connection of its own (not from the pool: a pooled
 * connection would be handed to other queries). Reconnects after a loss with
 * a growing pause; `onLive(false)` is called at once when the connection is
 * lost, `onLive(true)` once LISTEN is in place again, so a user of the
 * notifications knows when it may have missed some.
 */
import type { Knex } from 'knex';
import { Client, ClientConfig } from 'pg';

export interface ListenerHandlers {
  /** A notification on the channel (payload as sent). */
  onNotify(payload: string): void;
  /** Whether notifications are being received; false means some may have been missed. */
  onLive(live: boolean, schema?: string): void;
  onError?(e: Error): void;
}

export class PgListener {
  private client?: Client;
  private stopped = false;
  private retryMs = 250;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly db: Knex,
    private readonly channel: string,
    private readonly handlers: ListenerHandlers,
  ) {}

  start(): this {
    void this.connect();
    return this;
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const config = (this.db.client as { config: { connection: ClientConfig } }).config.connection;
    const client = new Client({ ...config, application_name: `${config.application_name ?? 'platform'}-listen` });
    this.client = client;
    let lost = false;
    const onLost = (e?: Error) => {
      if (lost) return;
      lost = true;
      this.handlers.onLive(false);
      if (e) this.handlers.onError?.(e);
      client.removeAllListeners();
      client.on('error', () => undefined);
      void client.end().catch(() => undefined);
      if (this.stopped) return;
      this.timer = setTimeout(() => void this.connect(), this.retryMs);
      this.timer.unref();
      this.retryMs = Math.min(this.retryMs * 2, 5000);
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (n) => {
      if (n.channel === this.channel) this.handlers.onNotify(n.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(this.channel)}`);
      const schema = (await client.query('SELECT current_schema() AS s')).rows[0].s as string;
      if (this.stopped || lost) return void (await client.end().catch(() => undefined));
      this.retryMs = 250;
      this.handlers.onLive(true, schema);
    } catch (e) {
      onLost(e as Error);
    }
  }

  async close(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    const c = this.client;
    this.client = undefined;
    if (c) {
      c.removeAllListeners();
      c.on('error', () => undefined);
      await c.end().catch(() => undefined);
    }
    this.handlers.onLive(false);
  }
}
