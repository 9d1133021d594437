/** Helpers for tests that run the event pipeline: write events, wait until every projection has caught up. */
import type { Knex } from 'knex';
import type { Kafka } from 'kafkajs';
import { EVENT_AREAS } from '../../domain/events';
import { createEventStore, EventStore } from '../../infra/eventstore';
import { ensureTopics } from '../../infra/kafka-topics';
import { Relay } from '../../infra/relay/relay';
import { PROJECTIONS } from '../../projections';
import type { Projection } from '../../projections/framework';
import { ProjectionConsumer } from '../../projections/projector';
import { testKafka, testLogger } from './env';
import type { IsolatedSchema } from './schema';
import { pipelineStats } from '../../projections/stats';
import { waitFor } from './wait';

/** Waits until the relay has sent everything and every projection has consumed all of Kafka. */
export async function waitForCatchUp(db: Knex, kafka: Kafka, prefix: string, timeoutMs = 60000): Promise<void> {
  let last = '';
  await waitFor(
    'the pipeline to catch up',
    async () => {
      const s = await pipelineStats(db, createEventStore(db), kafka, prefix, PROJECTIONS);
      const lag = s.relay.lag_events + Object.values(s.projections).reduce((a, p) => a + p.lag_messages, 0);
      last = JSON.stringify({
        relay: s.relay,
        lag: Object.fromEntries(Object.entries(s.projections).map(([k, v]) => [k, v.lag_messages])),
      });
      return lag === 0;
    },
    timeoutMs,
    200,
    () => last,
  );
}

/** Rows that differ between a live projection table and its rebuilt copy (for failure messages). */
export async function diffRows(
  db: Knex,
  live: string,
  rebuilt: string,
  limit = 5,
): Promise<{ only_live: unknown[]; only_rebuilt: unknown[] }> {
  const q = (a: string, b: string) =>
    db.raw(`SELECT row_to_json(x)::text AS r FROM (SELECT * FROM ?? EXCEPT SELECT * FROM ??) x LIMIT ?`, [a, b, limit]);
  const [l, r] = await Promise.all([q(live, rebuilt), q(rebuilt, live)]);
  return { only_live: l.rows.map((x: { r: string }) => x.r), only_rebuilt: r.rows.map((x: { r: string }) => x.r) };
}

/** Relay and projection consumers running in the test process, on a schema's topics. */
export interface InProcessPipeline {
  kafka: Kafka;
  stop(): Promise<void>;
}

/** Creates the schema's topics, starts a relay and a consumer per projection; stop() ends them in order. */
export async function startInProcessPipeline(
  s: IsolatedSchema,
  store: EventStore,
  projections: Projection[],
  partitions = 3,
): Promise<InProcessPipeline> {
  const kafka = testKafka();
  await ensureTopics(kafka, s.topicPrefix, EVENT_AREAS, partitions, 1);
  const relay = new Relay(s.db, store, kafka, testLogger(), { topicPrefix: s.topicPrefix });
  await relay.start();
  const relayRun = relay.run();
  const consumers = projections.map(
    (p) => new ProjectionConsumer(s.db, kafka, p, testLogger(), { topicPrefix: s.topicPrefix }),
  );
  await Promise.all(consumers.map((c) => c.start()));
  return {
    kafka,
    async stop() {
      relay.stop();
      await relayRun;
      await relay.close();
      await Promise.all(consumers.map((c) => c.stop()));
    },
  };
}
