/**
 * The relay: an outbox reader. It reads the event store in commit order from
 * its stored checkpoint, produces each batch to Kafka (topic per domain area,
 * key = stream id so one stream stays in one partition, in order), waits for
 * acknowledgement from all in-sync replicas (acks = -1), and only then moves
 * its checkpoint. A crash between send and checkpoint re-sends the batch:
 * delivery is at-least-once and the projections de-duplicate.
 */
import { Knex } from 'knex';
import { CompressionTypes, Kafka, Producer } from 'kafkajs';
import { Logger } from 'pino';
import { EVENT_DEFINITIONS, isEventType } from '../../domain/events';
import { topicName } from '../kafka';
import { Checkpoint, checkpointOf, EventStore, RecordedEvent, START } from '../eventstore/port';

export interface RelayOptions {
  /** Checkpoint row name (default "relay"). */
  name?: string;
  topicPrefix: string;
  /** Events read and produced per round (default 2000). */
  batchSize?: number;
  /** Idle wait between empty reads, ms (default 25). */
  idleMs?: number;
}

export async function loadCheckpoint(db: Knex, name: string): Promise<Checkpoint> {
  const r = await db.raw('SELECT transaction_id::text AS t, global_position::text AS g FROM es_checkpoints WHERE name = ?', [name]);
  return r.rows[0] ? { transactionId: r.rows[0].t, globalPosition: r.rows[0].g } : START;
}

export async function saveCheckpoint(db: Knex, name: string, cp: Checkpoint): Promise<void> {
  await db.raw(
    `INSERT INTO es_checkpoints (name, transaction_id, global_position, updated_at) VALUES (?, ?::xid8, ?, now())
     ON CONFLICT (name) DO UPDATE SET transaction_id = excluded.transaction_id, global_position = excluded.global_position, updated_at = now()`,
    [name, cp.transactionId, cp.globalPosition],
  );
}

/** The Kafka message of an event: the whole recorded event as JSON. */
export function toMessage(e: RecordedEvent) {
  return { key: e.streamId, value: JSON.stringify(e), headers: { 'event-type': e.type, 'event-id': e.eventId } };
}

export class Relay {
  private producer: Producer;
  private stopped = false;
  private wake: (() => void) | undefined;
  readonly name: string;
  /** Events produced since start (for health and stats). */
  relayed = 0;
  lastError: string | undefined;
  checkpoint: Checkpoint = START;

  constructor(
    private readonly db: Knex,
    private readonly store: EventStore,
    kafka: Kafka,
    private readonly logger: Logger,
    private readonly opts: RelayOptions,
  ) {
    this.name = opts.name ?? 'relay';
    // One request in flight keeps per-partition order even when a send is retried.
    this.producer = kafka.producer({ maxInFlightRequests: 1, allowAutoTopicCreation: false });
  }

  async start(): Promise<void> {
    await this.producer.connect();
    this.checkpoint = await loadCheckpoint(this.db, this.name);
  }

  /** Relays one batch; returns how many events were sent. */
  async runOnce(): Promise<number> {
    const events = await this.store.readAll(this.checkpoint, this.opts.batchSize ?? 2000);
    if (events.length === 0) return 0;
    const byTopic = new Map<string, ReturnType<typeof toMessage>[]>();
    for (const e of events) {
      const area = isEventType(e.type) ? EVENT_DEFINITIONS[e.type].area : 'unknown';
      const topic = topicName(this.opts.topicPrefix, area);
      if (!byTopic.has(topic)) byTopic.set(topic, []);
      byTopic.get(topic)!.push(toMessage(e));
    }
    await this.producer.sendBatch({
      acks: -1,
      compression: CompressionTypes.None,
      topicMessages: [...byTopic.entries()].map(([topic, messages]) => ({ topic, messages })),
    });
    const last = checkpointOf(events[events.length - 1]);
    await saveCheckpoint(this.db, this.name, last);
    this.checkpoint = last;
    this.relayed += events.length;
    return events.length;
  }

  /** Runs until stop(); backs off on errors (Kafka or PostgreSQL down) and keeps going. */
  async run(): Promise<void> {
    let backoff = 200;
    while (!this.stopped) {
      try {
        const n = await this.runOnce();
        this.lastError = undefined;
        backoff = 200;
        if (n === 0) await this.sleep(this.opts.idleMs ?? 25);
      } catch (e) {
        this.lastError = (e as Error).message;
        this.logger.error({ err: e }, 'relay round failed; retrying');
        await this.sleep(backoff);
        backoff = Math.min(backoff * 2, 5000);
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((r) => {
      const t = setTimeout(r, ms);
      this.wake = () => {
        clearTimeout(t);
        r();
      };
    });
  }

  /** Asks run() to finish after the current round (await run()'s promise, then close()). */
  stop(): void {
    this.stopped = true;
    this.wake?.();
  }

  async close(): Promise<void> {
    await this.producer.disconnect();
  }
}
