/**
 * Runs one projection from Kafka. Consumer group `<prefix>.projection.<name>`;
 * manual offsets: each batch's changes and the partition's next offset are
 * written in ONE PostgreSQL transaction, and on partition assignment the
 * consumer seeks to the offsets stored there (Kafka's committed offsets are
 * only a hint). With the per-stream positions in runner.ts, a batch delivered
 * twice changes nothing.
 */
import type { Knex } from 'knex';
import type { Consumer, Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { createConsumer, leaveGroup, topicName } from '../infra/kafka';
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

export class ProjectionConsumer {
  private consumer: Consumer;
  readonly groupId: string;
  applied = 0;
  lastError: string | undefined;
  private running = false;

  constructor(
    private readonly db: Knex,
    kafka: Kafka,
    private readonly projection: Projection,
    private readonly logger: Logger,
    private readonly opts: ProjectorOptions,
  ) {
    this.groupId = `${opts.topicPrefix}.projection.${projection.name}`;
    this.consumer = createConsumer(kafka, {
      groupId: this.groupId,
      maxBytesPerPartition: opts.maxBytesPerPartition ?? 4 * 1024 * 1024,
    });
  }

  get topics(): string[] {
    return this.projection.areas.map((a) => topicName(this.opts.topicPrefix, a));
  }

  get isRunning(): boolean {
    return this.running;
  }

  async start(): Promise<void> {
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: this.topics, fromBeginning: true });
    this.consumer.on(this.consumer.events.GROUP_JOIN, (e) => {
      void this.seekToStored(e.payload.memberAssignment).catch((err) =>
        this.logger.error({ err }, 'seek to stored offsets failed'),
      );
    });
    this.consumer.on(this.consumer.events.CRASH, (e) => {
      this.lastError = String(e.payload.error?.message ?? e.payload.error);
      this.logger.error({ err: e.payload.error, restart: e.payload.restart }, 'projection consumer crashed');
    });
    await this.consumer.run({
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
        this.lastError = undefined;
        resolveOffset(last);
        await commitOffsetsIfNecessary();
        await heartbeat();
      },
    });
    this.running = true;
  }

  /** On assignment, continue exactly where PostgreSQL says this projection stopped. */
  private async seekToStored(assignment: Record<string, number[]>): Promise<void> {
    const topics = Object.keys(assignment);
    if (topics.length === 0) return;
    const rows = await this.db('projection_offsets')
      .where({ projection: this.projection.name })
      .whereIn('topic', topics);
    for (const r of rows as { topic: string; partition: number; next_offset: string }[]) {
      if (assignment[r.topic]?.includes(r.partition))
        this.consumer.seek({ topic: r.topic, partition: r.partition, offset: String(r.next_offset) });
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    await leaveGroup(this.consumer);
  }
}
