/**
 * npm run bench:events — the event backbone's figures in one run, in a private
 * schema and topic prefix (the platform beside it is untouched):
 *   1. append rate: W writers append N events (3-event task streams) to the event store, one stream
 *      per call, then N more with appendMany (BENCH_STREAMS_PER_CALL streams per call);
 *   2. end-to-end rate: N more events appended (appendMany) while relay and projector (real processes)
 *      run, from the first append until the task-status projection committed the last one;
 *   2b. pipeline drain: N events committed in one transaction, relay + Kafka + projection alone
 *      (and when the relay alone had sent them);
 *   3. ceiling: a bare kafkajs consumer reading the same topic (4N events) without any database work
 *      (median of three reads); and, to show what bounds the relay, a bare kafkajs producer sending N of
 *      the same events;
 *   4. projection lag p50/p99 (projection insert time − event recorded time) while one-event task
 *      streams arrive at half the measured maximum end-to-end rate (appendMany every 10 ms).
 * Settings: BENCH_EVENTS (default 30000), BENCH_WRITERS (8), BENCH_STREAMS_PER_CALL (50), BENCH_LAG_SECONDS (15).
 */
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../infra/config';
import { createKafka } from '../../infra/kafka';
import { ensureTopics } from '../../infra/kafka-topics';
import { lastStoredCheckpoint } from '../../infra/eventstore/postgres';
import { createEventStore, StoreTx } from '../../infra/eventstore';
import { START, StreamAppend } from '../../infra/eventstore/port';
import { CompressionTypes } from 'kafkajs';
import { EVENT_AREAS } from '../../domain/events';
import { benchSchema, percentile, sleep, startWorker, until } from './lib';

const N = Number(process.env.BENCH_EVENTS ?? 30000);
const W = Number(process.env.BENCH_WRITERS ?? 8);
const LAG_SECONDS = Number(process.env.BENCH_LAG_SECONDS ?? 15);
const PER_CALL = Number(process.env.BENCH_STREAMS_PER_CALL ?? 50);

async function main(): Promise<void> {
  const config = loadConfig();
  const s = await benchSchema(W + 6);
  const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: 'bench-events' });
  const store = createEventStore(s.db);
  const env = {
    DATABASE_URL: s.url,
    KAFKA_TOPIC_PREFIX: s.topicPrefix,
    RELAY_HEALTH_PORT: '0',
    PROJECTOR_HEALTH_PORT: '0',
    LOG_LEVEL: 'warn',
  };
  const out: Record<string, number | string> = { events: N, writers: W };
  const procs: { stop(): Promise<void> }[] = [];
  try {
    await ensureTopics(
      kafka,
      s.topicPrefix,
      EVENT_AREAS,
      config.KAFKA_TOPIC_PARTITIONS,
      config.KAFKA_REPLICATION_FACTOR,
    );
    // Lag probe: a trigger notes, inside the projector's transaction, how old each projected task is.
    await s.db.raw(`CREATE TABLE bench_lag (lag_ms double precision NOT NULL);
      CREATE FUNCTION bench_note_lag() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO bench_lag VALUES (extract(epoch FROM clock_timestamp() - NEW.created_at) * 1000); RETURN NEW; END $$;
      CREATE TRIGGER bench_lag AFTER INSERT ON task_status FOR EACH ROW EXECUTE FUNCTION bench_note_lag();`);

    // 1. Append rate: the store alone (pipeline not running), once with one stream per call, once with
    //    appendMany (PER_CALL streams per call: one transaction, one INSERT).
    const tasks = Math.floor(N / 3);
    const task = (): StreamAppend => {
      const id = randomUUID();
      return {
        streamId: `task-${id}`,
        expectedVersion: 'no_stream',
        events: [
          { type: 'TaskStarted', data: { task_id: id, task_type: 'bench', user_id: 'bench', workflow_id: id } },
          { type: 'TaskProgressed', data: { task_id: id, message: 'working', at: new Date().toISOString() } },
          { type: 'TaskCompleted', data: { task_id: id, result: { ok: true } } },
        ],
      };
    };
    /** `count` task streams appended by W writers, `perCall` streams per call (inside `tx` when given). */
    const appendTasks = async (count: number, perCall: number, tx?: StoreTx) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: tx ? 1 : W }, async () => {
          while (next < count) {
            const k = Math.min(perCall, count - next);
            next += k;
            const batch = Array.from({ length: k }, task);
            if (k === 1) await (tx ?? store).append(batch[0].streamId, batch[0].events, batch[0].expectedVersion);
            else await (tx ?? store).appendMany(batch);
          }
        }),
      );
    };
    const timed = async (f: () => Promise<unknown>) => {
      const t = performance.now();
      await f();
      return (performance.now() - t) / 1000;
    };
    const single = await timed(() => appendTasks(tasks, 1));
    out.append_one_stream_per_call_events_per_s = Math.round((tasks * 3) / single);
    out.append_one_stream_per_call_calls_per_s = Math.round(tasks / single);
    const many = await timed(() => appendTasks(tasks, PER_CALL));
    out.append_many_events_per_s = Math.round((tasks * 3) / many);
    out.append_many_streams_per_call = PER_CALL;

    // 2. Start relay and projector (real processes) and let them drain that backlog: warm-up, and a drain figure.
    //    "Done" is watched on small tables (polling count(*) of task_status would itself load PostgreSQL):
    //    the relay's checkpoint reaches the last stored event, then the projection's stored offsets reach the
    //    topic's end offsets; the count of completed tasks is checked once afterwards.
    const topic = `${s.topicPrefix}.tasks`;
    const admin = kafka.admin();
    await admin.connect();
    let done = tasks * 2;
    /** Waits until relay and task-status projection have everything stored now; returns when the relay had it (ms). */
    const drained = async (): Promise<{ relayedAt: number }> => {
      const last = await lastStoredCheckpoint(s.db);
      let relayedAt = 0;
      await until(
        async () =>
          (await s.db.raw("SELECT global_position::text AS g FROM es_checkpoints WHERE name = 'relay'")).rows[0]?.g ===
          last.globalPosition,
        600000,
        5,
      );
      relayedAt = performance.now();
      const ends = await admin.fetchTopicOffsets(topic);
      await until(
        async () => {
          const r = await s.db.raw(
            "SELECT partition, next_offset::text AS o FROM projection_offsets WHERE projection = 'task-status' AND topic = ?",
            [topic],
          );
          const at = new Map((r.rows as { partition: number; o: string }[]).map((x) => [x.partition, BigInt(x.o)]));
          return ends.every((e) => BigInt(e.high) === 0n || (at.get(e.partition) ?? 0n) >= BigInt(e.high));
        },
        600000,
        5,
      );
      const completed = Number(
        (await s.db.raw("SELECT count(*) AS n FROM task_status WHERE status = 'completed'")).rows[0].n,
      );
      if (completed !== done) throw new Error(`projection has ${completed} completed tasks, expected ${done}`);
      return { relayedAt };
    };
    const tDrain = performance.now();
    procs.push(startWorker('projector', env), startWorker('relay', env));
    await drained();
    out.backlog_drain_events_per_s_including_process_start = Math.round(
      (done * 3) / ((performance.now() - tDrain) / 1000),
    );

    // End-to-end: N more events appended (appendMany, W writers) while the pipeline runs, timed from the
    // first append until the projection has committed the last of them.
    const t1 = performance.now();
    await appendTasks(tasks, PER_CALL);
    const appendedAt = performance.now();
    done += tasks;
    await drained();
    const e2eSecs = (performance.now() - t1) / 1000;
    out.end_to_end_events_per_s = Math.round((tasks * 3) / e2eSecs);
    out.end_to_end_append_phase_events_per_s = Math.round((tasks * 3) / ((appendedAt - t1) / 1000));
    out.end_to_end_tail_ms_after_last_append = Math.round(performance.now() - appendedAt);

    // Pipeline alone: N events committed in ONE transaction while relay and projector are running and warm,
    // timed from the commit until the relay has sent them and until the projection has committed them.
    const t2 = performance.now();
    await store.transaction((tx) => appendTasks(tasks, PER_CALL, tx));
    const committedAt = performance.now();
    out.single_transaction_append_seconds = Number(((committedAt - t2) / 1000).toFixed(2));
    done += tasks;
    const { relayedAt } = await drained();
    out.pipeline_drain_events_per_s = Math.round((tasks * 3) / ((performance.now() - committedAt) / 1000));
    out.relay_drain_events_per_s = Math.round((tasks * 3) / ((relayedAt - committedAt) / 1000));
    await admin.disconnect();

    // 3. Ceiling: a bare consumer of the same topic, no database work. Three reads (fresh groups), the median.
    const bareRead = async () => {
      const consumer = kafka.consumer({
        groupId: `${s.topicPrefix}.bare-${randomUUID().slice(0, 6)}`,
        maxBytesPerPartition: 4 * 1024 * 1024,
      });
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      let seen = 0;
      let firstAt = 0;
      let lastAt = 0;
      await consumer.run({
        eachBatch: async ({ batch }) => {
          if (!firstAt) firstAt = performance.now();
          seen += batch.messages.length;
          lastAt = performance.now();
        },
      });
      await until(async () => seen >= done * 3, 300000, 20);
      await consumer.disconnect();
      return Math.round(seen / ((lastAt - firstAt) / 1000 || 1e-9));
    };
    const reads = [await bareRead(), await bareRead(), await bareRead()].sort((x, y) => x - y);
    out.bare_consumer_events_per_s = reads[1];
    out.bare_consumer_runs = reads.join(' / ');

    // What bounds the relay: a bare kafkajs producer sending the same events (acks = all, one request at a
    // time, requests of 2,000 messages) to a scratch topic, no database work.
    await ensureTopics(
      kafka,
      s.topicPrefix,
      ['bare_producer'],
      config.KAFKA_TOPIC_PARTITIONS,
      config.KAFKA_REPLICATION_FACTOR,
    );
    const sample = (await store.readAllEncoded(START, 2000)).map((e) => ({
      key: e.streamId,
      value: Buffer.from(e.json),
    }));
    const producer = kafka.producer({ maxInFlightRequests: 1, allowAutoTopicCreation: false });
    await producer.connect();
    const tp = performance.now();
    for (let sent = 0; sent < N; sent += sample.length) {
      await producer.sendBatch({
        acks: -1,
        compression: CompressionTypes.None,
        topicMessages: [{ topic: `${s.topicPrefix}.bare_producer`, messages: sample }],
      });
    }
    out.bare_producer_events_per_s = Math.round(
      (Math.ceil(N / sample.length) * sample.length) / ((performance.now() - tp) / 1000),
    );
    await producer.disconnect();
    out.ratio_end_to_end_to_ceiling = Number(
      (Number(out.end_to_end_events_per_s) / Number(out.bare_consumer_events_per_s)).toFixed(3),
    );
    out.ratio_pipeline_drain_to_ceiling = Number(
      (Number(out.pipeline_drain_events_per_s) / Number(out.bare_consumer_events_per_s)).toFixed(3),
    );
    out.ratio_relay_drain_to_bare_producer = Number(
      (Number(out.relay_drain_events_per_s) / Number(out.bare_producer_events_per_s)).toFixed(3),
    );

    // 4. Lag at half the maximum end-to-end rate: every 10 ms, the events owed by then, each a new one-event task
    //    stream, in one appendMany call (calls overlap when one takes longer than a tick).
    const rate = Math.max(10, Math.floor(Number(out.end_to_end_events_per_s) / 2));
    out.lag_rate_events_per_s = rate;
    await s.db.raw('TRUNCATE bench_lag');
    const perTick = rate / 100;
    let owed = 0;
    let sent = 0;
    const inflight = new Set<Promise<unknown>>();
    const end = performance.now() + LAG_SECONDS * 1000;
    while (performance.now() < end) {
      const tick = performance.now();
      owed += perTick;
      const k = Math.floor(owed);
      if (k > 0) {
        owed -= k;
        const p = store.appendMany(
          Array.from({ length: k }, () => {
            const id = randomUUID();
            return {
              streamId: `task-${id}`,
              expectedVersion: 'no_stream' as const,
              events: [
                {
                  type: 'TaskStarted' as const,
                  data: { task_id: id, task_type: 'bench-lag', user_id: 'bench', workflow_id: id },
                },
              ],
            };
          }),
        );
        inflight.add(p);
        void p.finally(() => inflight.delete(p));
        sent += k;
      }
      await sleep(Math.max(0, 10 - (performance.now() - tick)));
    }
    await Promise.all(inflight);
    await until(
      async () => Number((await s.db.raw('SELECT count(*) AS n FROM bench_lag')).rows[0].n) >= sent,
      120000,
      50,
    );
    const lags = ((await s.db.raw('SELECT lag_ms FROM bench_lag ORDER BY lag_ms')).rows as { lag_ms: number }[]).map(
      (r) => r.lag_ms,
    );
    out.lag_events = sent;
    out.lag_achieved_events_per_s = Math.round(sent / LAG_SECONDS);
    out.lag_p50_ms = Number(percentile(lags, 50).toFixed(1));
    out.lag_p99_ms = Number(percentile(lags, 99).toFixed(1));
    out.lag_max_ms = Number(lags[lags.length - 1].toFixed(1));
  } finally {
    for (const p of procs) await p.stop();
    const admin = kafka.admin();
    await admin.connect();
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(`${s.topicPrefix}.`));
    if (topics.length) await admin.deleteTopics({ topics }).catch(() => undefined);
    await admin.disconnect();
    await s.drop();
  }
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).stack}\n`);
  process.exit(1);
});
