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
import { Checkpoint, checkpointOf, EncodedEvent, EventStore, RecordedEvent, START } from '../eventstore/port';

export interface RelayOptions {
  /** Checkpoint row name (default "relay"). */
  name?: string;
  topicPrefix: string;
  /** Events read and produced per round (default 5000). */
  batchSize?: number;
  /** Largest produce request, bytes of message values and keys (default 900 KiB, under the broker's 1 MiB default). */
  maxRequestBytes?: number;
  /** Idle wait between empty reads, ms (default 25). */
  idleMs?: number;
}

export async function loadCheckpoint(db: Knex, name: string): Promise<Checkpoint> {
  const r = await db.raw(
    'SELECT transaction_id::text AS t, global_position::text AS g FROM es_checkpoints WHERE name = ?',
    [name],
  );
  return r.rows[0] ? { transactionId: r.rows[0].t, globalPosition: r.rows[0].g } : START;
}

export async function saveCheckpoint(db: Knex, name: string, cp: Checkpoint): Promise<void> {
  await db.raw(
    `INSERT INTO es_checkpoints (name, transaction_id, global_position, updated_at) VALUES (?, ?::xid8, ?, now())
     ON CONFLICT (name) DO UPDATE SET transaction_id = excluded.transaction_id, global_position = excluded.global_position, updated_at = now()`,
    [name, cp.transactionId, cp.globalPosition],
  );
}

/**
 * The Kafka message of an event: key = stream id, value = the whole recorded
 * event as JSON (type and event id included). No headers: kafkajs encodes
 * them in JavaScript at a third of the producer's throughput, and no consumer
 * needs them besides the value.
 */
export function toMessage(e: EncodedEvent) {
  return { key: e.streamId, value: Buffer.from(e.json) };
}

type Message = ReturnType<typeof toMessage>;

/** The recorded event a relay message carries (the store wrote it; its type and data were validated together). */
export function decodeEvent(value: Buffer): RecordedEvent {
  return JSON.parse(value.toString('utf8')) as RecordedEvent;
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

  private ahead: Promise<EncodedEvent[]> | undefined;

  /** The next batch after the checkpoint; while one batch is being sent, the next is already read. */
  private read(from: Checkpoint): Promise<EncodedEvent[]> {
    return this.store.readAllEncoded(from, this.opts.batchSize ?? 5000);
  }

  /** Relays one batch; returns how many events were sent. */
  async runOnce(): Promise<number> {
    const events = await (this.ahead ?? this.read(this.checkpoint));
    this.ahead = undefined;
    if (events.length === 0) return 0;
    const last = checkpointOf(events[events.length - 1]);
    // Read-ahead from where this batch ends; if this round fails, the next starts again from the checkpoint.
    const ahead = this.read(last);
    ahead.catch(() => undefined);
    await this.send(events);
    await saveCheckpoint(this.db, this.name, last);
    this.checkpoint = last;
    this.ahead = ahead;
    this.relayed += events.length;
    return events.length;
  }

  /** Produces in commit order, in requests of at most maxRequestBytes, each acknowledged by all in-sync replicas. */
  private async send(events: EncodedEvent[]): Promise<void> {
    const limit = this.opts.maxRequestBytes ?? 900 * 1024;
    let byTopic = new Map<string, Message[]>();
    let bytes = 0;
    const flush = async () => {
      if (byTopic.size === 0) return;
      await this.producer.sendBatch({
        acks: -1,
        compression: CompressionTypes.None,
        topicMessages: [...byTopic.entries()].map(([topic, messages]) => ({ topic, messages })),
      });
      byTopic = new Map();
      bytes = 0;
    };
    for (const e of events) {
      const m = toMessage(e);
      const size = m.value.length + Buffer.byteLength(m.key) + 64; // 64: the record's own framing, generously
      if (bytes + size > limit) await flush();
      const area = isEventType(e.type) ? EVENT_DEFINITIONS[e.type].area : 'unknown';
      const topic = topicName(this.opts.topicPrefix, area);
      if (!byTopic.has(topic)) byTopic.set(topic, []);
      byTopic.get(topic)!.push(m);
      bytes += size;
    }
    await flush();
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
