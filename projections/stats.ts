/**
 * Where the pipeline stands: event counts per type, the relay's lag behind
 * the event store, and each projection's lag behind Kafka (per partition:
 * high watermark minus the offset stored with the read model).
 */
import type { Knex } from 'knex';
import type { Admin, Kafka } from 'kafkajs';
import { topicName } from '../infra/kafka';
import { EventStore, START } from '../infra/eventstore';
import { loadCheckpoint } from '../infra/relay/relay';
import type { Projection } from './framework';

export interface PipelineStats {
  events_total: number;
  events_by_type: Record<string, number>;
  relay: { checkpoint_global_position: string | null; lag_events: number };
  projections: Record<
    string,
    { lag_messages: number; partitions: { topic: string; partition: number; stored: number; high: number }[] }
  >;
}

export async function pipelineStats(
  db: Knex,
  store: EventStore,
  kafka: Kafka,
  prefix: string,
  projections: Projection[],
  relayName = 'relay',
): Promise<PipelineStats> {
  const events_by_type = await store.countByType();
  const cp = await loadCheckpoint(db, relayName);
  const relayed = cp.transactionId !== START.transactionId || cp.globalPosition !== START.globalPosition;
  const lagEvents = await store.countAfter(cp);
  const admin = kafka.admin();
  await admin.connect();
  let out: PipelineStats['projections'];
  try {
    out = await projectionLags(db, admin, prefix, projections);
  } finally {
    await admin.disconnect();
  }
  return {
    events_total: Object.values(events_by_type).reduce((a, b) => a + b, 0),
    events_by_type,
    relay: { checkpoint_global_position: relayed ? cp.globalPosition : null, lag_events: lagEvents },
    projections: out,
  };
}

/**
 * Each projection's lag behind Kafka: per partition, the high watermark minus
 * the offset stored with the read model. `admin` is a connected kafkajs admin
 * (the projector keeps one open for its heartbeat).
 */
export async function projectionLags(
  db: Knex,
  admin: Admin,
  prefix: string,
  projections: Projection[],
): Promise<PipelineStats['projections']> {
  const out: PipelineStats['projections'] = {};
  const existing = new Set(await admin.listTopics());
  for (const p of projections) {
    const stored = await db('projection_offsets').where({ projection: p.name });
    const partitions: PipelineStats['projections'][string]['partitions'] = [];
    for (const area of p.areas) {
      const topic = topicName(prefix, area);
      if (!existing.has(topic)) continue;
      for (const o of await admin.fetchTopicOffsets(topic)) {
        const s = stored.find((r) => r.topic === topic && r.partition === o.partition);
        const storedOffset = s ? Number(s.next_offset) : Number(o.low);
        partitions.push({ topic, partition: o.partition, stored: storedOffset, high: Number(o.high) });
      }
    }
    out[p.name] = { lag_messages: partitions.reduce((a, x) => a + Math.max(0, x.high - x.stored), 0), partitions };
  }
  return out;
}
