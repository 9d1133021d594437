/** Creates the domain topics (one per area) when they are missing, and removes a private prefix's topics. */
import { Kafka } from 'kafkajs';
import { topicName } from './kafka';

/** How often a creation the broker has not finished propagating is looked at again. */
const ATTEMPTS = 8;

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
    const wanted = areas.map((a) => topicName(prefix, a));
    for (let attempt = 1; ; attempt++) {
      const existing = new Set(await admin.listTopics());
      const missing = wanted.filter((t) => !existing.has(t));
      try {
        if (missing.length)
          await admin.createTopics({
            waitForLeaders: true,
            topics: missing.map((topic) => ({ topic, numPartitions: partitions, replicationFactor })),
          });
        // Every partition has a leader the metadata answers with: producers and consumers can start.
        await admin.fetchTopicMetadata({ topics: wanted });
        return;
      } catch (e) {
        // A busy broker may answer the leaders' metadata before it hosts the new partitions
        // (UNKNOWN_TOPIC_OR_PARTITION, LEADER_NOT_AVAILABLE): look again shortly; anything else is a real failure.
        const type = (e as { type?: string }).type ?? '';
        const transient =
          (e as { retriable?: boolean }).retriable === true ||
          ['UNKNOWN_TOPIC_OR_PARTITION', 'LEADER_NOT_AVAILABLE', 'TOPIC_ALREADY_EXISTS'].includes(type);
        if (!transient || attempt >= ATTEMPTS) throw e;
        await new Promise((r) => setTimeout(r, 250 * attempt));
      }
    }
  } finally {
    await admin.disconnect();
  }
}

/**
 * Deletes every topic `doomed` picks (in batches of 500) and answers how many: a private prefix's topics when its
 * schema is dropped, leftover test topics. Each topic keeps its partitions' files open in the broker, and thousands of
 * leftover test topics once ran a development broker out of file descriptors.
 */
export async function deleteTopicsWhere(kafka: Kafka, doomed: (topic: string) => boolean): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const topics = (await admin.listTopics()).filter(doomed);
    for (let i = 0; i < topics.length; i += 500)
      await admin.deleteTopics({ topics: topics.slice(i, i + 500), timeout: 60000 });
    return topics.length;
  } finally {
    await admin.disconnect();
  }
}

/** The topics `<prefix>.<area>` of a private prefix (a schema being dropped). */
export const deleteTopicsOf = (kafka: Kafka, prefix: string): Promise<number> =>
  deleteTopicsWhere(kafka, (t) => t.startsWith(`${prefix}.`));
