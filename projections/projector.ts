/**
 * Runs one projection from Kafka. Consumer group `<prefix>.projection.<name>`;
 * manual offsets: each batch's changes and the partition's next offset are
 * written in ONE PostgreSQL transaction, and on partition assignment the
 * consumer seeks to the offsets stored there (Kafka's committed offsets are
 * only a hint). With the per-stream positions in runner.ts, a batch delivered
 * twice changes nothing.
 *
 * A consumer that kafkajs gives up on (a crash it will not restart from) or
 * that the projector's watchdog finds stalled (messages waiting, no batch for
 * a while: workers/projector.ts) is replaced by a new one (`restart`): the
 * stored offsets make the new member continue exactly where the read model is.
 */
import type { Knex } from 'knex';
import type { Consumer, Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { createConsumer, LEAVE_GRACE_MS, leaveGroup, topicName } from '../infra/kafka';
import { decodeEvent } from '../infra/relay/relay';
import type { Projection } from './framework';
import { applyEvents, LIVE, projectionLockSql, retryRaces } from './runner';

export interface ProjectorOptions {
  topicPrefix: string;
  /** Largest batch kafkajs hands over per partition, bytes (default 4 MiB). */
  maxBytesPerPartition?: number;
  /** Partitions whose batches are applied at the same time (default 3). */
  partitionsConcurrently?: number;
}

/**
 * Why a consumer counts as stalled (the watchdog replaces it), or undefined: messages wait on its topics (`waiting`,
 * high watermarks past the stored offsets) and it has finished no batch for more than `stallMs`.
 */
export function stallOf(
  c: Pick<ProjectionConsumer, 'lastProgressAt'>,
  waiting: number,
  stallMs: number,
  now = Date.now(),
): string | undefined {
  const idle = now - c.lastProgressAt;
  return stallMs > 0 && waiting > 0 && idle > stallMs
    ? `stalled: ${waiting} messages waiting, no batch for ${Math.round(idle / 1000)} s`
    : undefined;
}

export class ProjectionConsumer {
  private consumer: Consumer;
  readonly groupId: string;
  applied = 0;
  lastError: string | undefined;
  /** When the consumer last finished a batch (or started): the watchdog's measure of progress. */
  lastProgressAt = Date.now();
  /** Times the consumer was replaced (restart). */
  restarts = 0;
  private running = false;
  private stopping = false;
  private restarting: Promise<void> | undefined;

  constructor(
    private readonly db: Knex,
    private readonly kafka: Kafka,
    private readonly projection: Projection,
    private readonly logger: Logger,
    private readonly opts: ProjectorOptions,
  ) {
    this.groupId = `${opts.topicPrefix}.projection.${projection.name}`;
    this.consumer = this.newConsumer();
  }

  private newConsumer(): Consumer {
    return createConsumer(this.kafka, {
      groupId: this.groupId,
      maxBytesPerPartition: this.opts.maxBytesPerPartition ?? 4 * 1024 * 1024,
    });
  }

  get topics(): string[] {
    return this.projection.areas.map((a) => topicName(this.opts.topicPrefix, a));
  }

  get projectionName(): string {
    return this.projection.name;
  }

  get isRunning(): boolean {
    return this.running;
  }

  async start(): Promise<void> {
    const consumer = this.consumer;
    this.lastProgressAt = Date.now();
    await consumer.connect();
    await consumer.subscribe({ topics: this.topics, fromBeginning: true });
    consumer.on(consumer.events.GROUP_JOIN, (e) => {
      void this.seekToStored(consumer, e.payload.memberAssignment).catch((err) =>
        this.logger.error({ err }, 'seek to stored offsets failed'),
      );
    });
    consumer.on(consumer.events.CRASH, (e) => {
      this.lastError = String(e.payload.error?.message ?? e.payload.error);
      this.logger.error({ err: e.payload.error, restart: e.payload.restart }, 'projection consumer crashed');
      // kafkajs restarts a consumer after a retriable crash; after any other it stays stopped: replace it.
      if (!e.payload.restart && consumer === this.consumer) void this.restart('kafkajs gave up after a crash');
    });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.opts.partitionsConcurrently ?? 3,
      eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale, commitOffsetsIfNecessary }) => {
        if (!isRunning() || isStale() || batch.messages.length === 0) return;
        const events = batch.messages.map((m) => decodeEvent(m.value!));
        const last = batch.messages[batch.messages.length - 1].offset;
        const next = (BigInt(last) + 1n).toString();
        const n = await retryRaces(
          () =>
            this.db.transaction(async (trx) => {
              await trx.raw(...projectionLockSql(this.projection.name, 'shared'));
              const applied = await applyEvents(trx, this.projection, events, LIVE);
              await trx.raw(
                `INSERT INTO projection_offsets (projection, topic, partition, next_offset, updated_at) VALUES (?, ?, ?, ?, now())
               ON CONFLICT (projection, topic, partition) DO UPDATE SET next_offset = excluded.next_offset, updated_at = now()`,
                [this.projection.name, batch.topic, batch.partition, next],
              );
              return applied;
            }),
          5,
          (err, attempt) =>
            this.logger.debug(
              { err, attempt, projection: this.projection.name },
              'projection batch lost a race with another applier; running it again',
            ),
        );
        this.applied += n;
        this.lastProgressAt = Date.now();
        this.lastError = undefined;
        resolveOffset(last);
        await commitOffsetsIfNecessary();
        await heartbeat();
      },
    });
    this.running = true;
  }

  /**
   * Replaces the consumer with a new member of the group (the old one leaves, or is dropped by the broker after the
   * session time-out); tried again every 2 s until it starts or stop() is called. One restart at a time.
   */
  restart(reason: string): Promise<void> {
    this.restarting ??= (async () => {
      this.logger.error({ projection: this.projection.name, reason }, 'replacing the projection consumer');
      this.running = false;
      this.restarts++;
      await leaveGroup(this.consumer);
      while (!this.stopping) {
        this.consumer = this.newConsumer();
        try {
          await this.start();
          return;
        } catch (err) {
          this.lastError = (err as Error).message;
          this.logger.error({ err, projection: this.projection.name }, 'projection consumer did not start again');
          await leaveGroup(this.consumer);
          await new Promise((r) => setTimeout(r, 2000));
        }
      }
    })().finally(() => (this.restarting = undefined));
    return this.restarting;
  }

  /** On assignment, continue exactly where PostgreSQL says this projection stopped. */
  private async seekToStored(consumer: Consumer, assignment: Record<string, number[]>): Promise<void> {
    const topics = Object.keys(assignment);
    if (topics.length === 0) return;
    const rows = await this.db('projection_offsets')
      .where({ projection: this.projection.name })
      .whereIn('topic', topics);
    for (const r of rows as { topic: string; partition: number; next_offset: string }[]) {
      if (assignment[r.topic]?.includes(r.partition))
        consumer.seek({ topic: r.topic, partition: r.partition, offset: String(r.next_offset) });
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.running = false;
    // A restart under way ends at its next step (it checks `stopping`); it is not waited for past the grace.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.restarting, new Promise((r) => (timer = setTimeout(r, LEAVE_GRACE_MS).unref()))]);
    clearTimeout(timer);
    await leaveGroup(this.consumer);
  }
}
