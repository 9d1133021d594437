/**
 * kafkajs client factory. Topic names are always built with topicName() so a
 * deployment (or a test run) can share a cluster under its own prefix.
 */
import { Kafka, logLevel } from 'kafkajs';

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
