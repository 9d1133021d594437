/** Creates the domain topics (one per area) when they are missing. Idempotent. */
import { Kafka } from 'kafkajs';
import { topicName } from './kafka';

export async function ensureTopics(
  kafka: Kafka,
  prefix: string,
  areas: string[],
  partitions: number,
  replicationFactor: number,
): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = areas.map((a) => topicName(prefix, a)).filter((t) => !existing.has(t));
    if (missing.length) {
      await admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((topic) => ({ topic, numPartitions: partitions, replicationFactor })),
      });
    }
  } finally {
    await admin.disconnect();
  }
}
