/**
 * kafkajs client factory. Topic names are always built with topicName() so a
 * deployment (or a test run) can share a cluster under its own prefix.
 */
import { Consumer, Kafka, logLevel } from 'kafkajs';

export interface KafkaOptions {
  /** Comma-separated host:port list */
  brokers: string;
  clientId: string;
}

export function createKafka(opts: KafkaOptions): Kafka {
  return new Kafka({
    clientId: opts.clientId,
    brokers: opts.brokers.split(',').map((b) => b.trim()),
    logLevel: logLevel.ERROR,
    connectionTimeout: 3000,
    requestTimeout: 10000,
    retry: { retries: 5, initialRetryTime: 200 },
  });
}

/** `<prefix>.<area>`: one topic per domain area. */
export function topicName(prefix: string, area: string): string {
  return `${prefix}.${area}`;
}

/** Consumer tuning of every consumer group of the platform, decided once. */
export interface ConsumerOptions {
  groupId: string;
  /** Largest batch kafkajs hands over per partition, bytes (default 1 MiB, kafkajs's own). */
  maxBytesPerPartition?: number;
}

/**
 * A consumer with the platform's settings: a crashed member's partitions move
 * to a live one after 10 s (session timeout), not kafkajs's default 30 s; a
 * rebalance waits at most 20 s for members to rejoin; heartbeats every 2 s;
 * topics are never created by consuming (scripts and ensureTopics create them).
 */
/** How long a stopping consumer may take to leave its group before the process goes on without it. */
export const LEAVE_GRACE_MS = 3000;

/**
 * Leaves the group, or gives up after LEAVE_GRACE_MS: a consumer still joining its group (a process stopped
 * right after it started, or during a rebalance) would otherwise hold the shutdown up to the rebalance time-out.
 * Giving up loses nothing: projections keep their offsets in PostgreSQL and every consumer's handling is
 * idempotent, and the broker drops the member after the session time-out.
 */
export async function leaveGroup(consumer: Consumer): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    consumer.disconnect(),
    new Promise<void>((r) => (timer = setTimeout(r, LEAVE_GRACE_MS).unref())),
  ]).finally(() => clearTimeout(timer));
}

export function createConsumer(kafka: Kafka, opts: ConsumerOptions): Consumer {
  return kafka.consumer({
    groupId: opts.groupId,
    ...(opts.maxBytesPerPartition ? { maxBytesPerPartition: opts.maxBytesPerPartition } : {}),
    sessionTimeout: 10000,
    rebalanceTimeout: 20000,
    heartbeatInterval: 2000,
    allowAutoTopicCreation: false,
  });
}
