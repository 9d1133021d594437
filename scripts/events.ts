/**
 * Analysts' command-line tool over the event store and projections (docs/events.md, "The analysts' CLI").
 *
 *   npm run events -- --help                 this overview; `npm run events -- <command> --help` for one command
 *   npm run events -- tail   [filters] [--from-start]                follow new events (JSON Lines)
 *   npm run events -- export [filters] [--out FILE]                  every event (or the filtered ones), JSON Lines
 *   npm run events -- stats                                          counts per type, relay and projection lag
 *   npm run events -- replay <projection> [--verify]                 rebuild from zero; --verify compares without swapping
 *
 * Reads DATABASE_URL, KAFKA_BROKERS and KAFKA_TOPIC_PREFIX like every process.
 *
 * `tail` and `export` write one JSON object per event (exportRecord): every stored field, positions as numbers, and
 * `taskType` on every event of a task's stream (from its TaskStarted), but no secret: the values of secret-bearing
 * fields (key and token hashes, fingerprints, PKCE challenges; domain/redaction.ts) are replaced by "[redacted]" and
 * credential texts in any string are cut to their public id. A file of events travels (to analysts, notebooks,
 * tickets) and the hashes are lookup keys of live credentials; no analysis needs them, so there is no option to keep
 * them.
 */
import { createWriteStream } from 'node:fs';
import { Writable } from 'node:stream';
import { loadConfig } from '../infra/config';
import { createDb } from '../infra/db/knex';
import { createKafka } from '../infra/kafka';
import { COMMIT_ORDER, EVENT_COLUMNS, lastStoredCheckpoint, rowToEvent } from '../infra/eventstore/postgres';
import { createEventStore } from '../infra/eventstore';
import { Checkpoint, checkpointOf, RecordedEvent, START } from '../infra/eventstore/port';
import { findProjection, PROJECTIONS } from '../projections';
import { dropReplayTables, hashProjection, replay, replayTables } from '../projections/replay';
import { pipelineStats } from '../projections/stats';
import { redactSecrets } from '../domain/redaction';
import { flags } from './args';
import type { Knex } from 'knex';

const FILTERS = `  --type T        only events of type T (TaskCompleted, UsageRecorded, ...)
  --stream S      only the stream S (task-<task_id>, usage-<user_id>, ...)
  --user U        only events whose metadata names user U
  --since ISO     recorded at or after this time (2026-11-01, 2026-11-01T12:00:00Z)
  --until ISO     recorded before this time`;

const RECORD = `Each line is one event: eventId, streamId, streamPosition, globalPosition, transactionId (numbers), type,
schemaVersion, data, metadata, recordedAt, and taskType on every event of a task's stream. Secret values are
"[redacted]" and credential texts are cut to their public id, always.`;

const HELP: Record<string, string> = {
  '': `npm run events -- <command> [options]

Commands:
  tail     follow new events as they are stored (JSON Lines on stdout)
  export   write every stored event, or the filtered ones, in commit order (JSON Lines)
  stats    event counts per type, the relay's lag and each projection's lag
  replay   rebuild a projection from the event store

\`npm run events -- <command> --help\` describes one command. Reads DATABASE_URL, KAFKA_BROKERS and
KAFKA_TOPIC_PREFIX like every process. docs/events.md has a DuckDB recipe for an export.
`,
  tail: `npm run events -- tail [filters] [--from-start]

Follows the event store in commit order and writes each new matching event as one JSON line, until Ctrl-C.
  --from-start    begin at the first stored event instead of the newest
${FILTERS}

${RECORD}
`,
  export: `npm run events -- export [filters] [--out FILE]

Writes every stored event in commit order (all of them when no filter is given), streaming page by page: memory
stays flat on any size of log. Prints the count on stderr.
  --out FILE      write to FILE instead of stdout
${FILTERS}

${RECORD}
`,
  stats: `npm run events -- stats

Prints JSON: events in total and per type, the relay's checkpoint and how many events it has not sent, and per
projection the messages it has not applied (per partition).
`,
  replay: `npm run events -- replay <projection> [--verify]

Rebuilds the projection from the event store into fresh tables and swaps them in atomically.
  --verify        rebuild and compare with the live tables (hash per table) without swapping; exit 1 if they differ
`,
};

/** The task types of task streams, read from their TaskStarted events (remembered for the rest of the run). */
class TaskTypes {
  private readonly known = new Map<string, string>();
  constructor(private readonly db: Knex) {}

  /** Learns the task types of the task streams among `events` not known yet (one query per call at most). */
  async learn(events: RecordedEvent[]): Promise<void> {
    const unknown = new Set<string>();
    for (const e of events) {
      if (!e.streamId.startsWith('task-') || this.known.has(e.streamId)) continue;
      const t = e.type === 'TaskStarted' ? (e.data as { task_type?: unknown }).task_type : undefined;
      if (typeof t === 'string') this.known.set(e.streamId, t);
      else unknown.add(e.streamId);
    }
    if (unknown.size === 0) return;
    if (this.known.size > 200_000) this.known.clear();
    const rows = (await this.db('es_events')
      .where('type', 'TaskStarted')
      .whereIn('stream_id', [...unknown])
      .select('stream_id', this.db.raw("data->>'task_type' AS task_type"))) as {
      stream_id: string;
      task_type: string;
    }[];
    for (const r of rows) this.known.set(r.stream_id, r.task_type);
  }

  of(streamId: string): string | undefined {
    return this.known.get(streamId);
  }
}

/** An event as tail and export write it: redacted, positions as numbers, the task type on task streams' events. */
function exportRecord(e: RecordedEvent, types: TaskTypes): Record<string, unknown> {
  const r = redactSecrets(e) as RecordedEvent;
  const taskType = types.of(e.streamId);
  return {
    ...r,
    globalPosition: Number(r.globalPosition),
    transactionId: Number(r.transactionId),
    ...(taskType ? { taskType } : {}),
  };
}

const str = (v: string | true | undefined) => (typeof v === 'string' ? v : undefined);

function matches(e: RecordedEvent, o: Record<string, string | true>): boolean {
  if (str(o.type) && e.type !== o.type) return false;
  if (str(o.stream) && e.streamId !== o.stream) return false;
  if (str(o.user) && e.metadata.user_id !== o.user) return false;
  return true;
}

function bar(done: number, total: number, rate: number): string {
  const width = 30;
  const f = total ? Math.min(1, done / total) : 1;
  const n = Math.round(f * width);
  return `\r[${'#'.repeat(n)}${' '.repeat(width - n)}] ${(f * 100).toFixed(0).padStart(3)}%  ${done}/${total} events  ${rate} events/s`;
}

async function main(): Promise<number> {
  const [first, ...rest] = process.argv.slice(2);
  const cmd = first === '--help' || first === '-h' ? '' : (first ?? '');
  const { positional, opts } = flags(rest);
  if (!(cmd in HELP)) {
    process.stderr.write(`unknown command "${cmd}"\n\n${HELP['']}`);
    return 2;
  }
  if (cmd === '' || opts.help === true || rest.includes('-h')) {
    process.stdout.write(HELP[cmd]);
    return 0;
  }
  const config = loadConfig();
  const db = createDb({ url: config.DATABASE_URL, poolMax: 4, applicationName: 'events-cli' });
  const store = createEventStore(db);
  try {
    switch (cmd) {
      case 'tail': {
        let cp: Checkpoint = START;
        if (!opts['from-start']) {
          cp = await lastStoredCheckpoint(db);
        }
        let stop = false;
        process.on('SIGINT', () => (stop = true));
        const types = new TaskTypes(db);
        while (!stop) {
          const events = (await store.readAll(cp, 1000)).filter((e) => matches(e, opts));
          await types.learn(events);
          for (const e of events) process.stdout.write(`${JSON.stringify(exportRecord(e, types))}\n`);
          if (events.length) cp = checkpointOf(events[events.length - 1]);
          else await new Promise((r) => setTimeout(r, 200));
        }
        return 0;
      }
      case 'export': {
        // Pages of 5,000 in commit order (keyset on the xid8 column), so memory stays flat on any size of log.
        const page = (after: Checkpoint) => {
          const q = db('es_events')
            .select(db.raw(EVENT_COLUMNS))
            .whereRaw('(es_events.transaction_id, es_events.global_position) > (?::xid8, ?::bigint)', [
              after.transactionId,
              after.globalPosition,
            ])
            .orderByRaw(COMMIT_ORDER)
            .limit(5000);
          if (str(opts.stream)) q.where('stream_id', opts.stream as string);
          if (str(opts.type)) q.where('type', opts.type as string);
          if (str(opts.user)) q.whereRaw("metadata->>'user_id' = ?", [opts.user as string]);
          if (str(opts.since)) q.where('recorded_at', '>=', opts.since as string);
          if (str(opts.until)) q.where('recorded_at', '<', opts.until as string);
          return q;
        };
        const out: Writable = str(opts.out) ? createWriteStream(opts.out as string) : process.stdout;
        let n = 0;
        const types = new TaskTypes(db);
        for (let after: Checkpoint = START; ;) {
          const rows = await page(after);
          if (rows.length === 0) break;
          const events = rows.map(rowToEvent);
          await types.learn(events);
          for (const e of events) {
            if (!out.write(`${JSON.stringify(exportRecord(e, types))}\n`))
              await new Promise((r) => out.once('drain', r));
            n++;
            after = checkpointOf(e);
          }
        }
        if (out !== process.stdout) await new Promise((r) => out.end(r));
        process.stderr.write(`exported ${n} events\n`);
        return 0;
      }
      case 'stats': {
        const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: 'events-cli' });
        const s = await pipelineStats(db, store, kafka, config.KAFKA_TOPIC_PREFIX, PROJECTIONS);
        process.stdout.write(`${JSON.stringify(s, null, 2)}\n`);
        return 0;
      }
      case 'replay': {
        const p = findProjection(positional[0] ?? '');
        if (!p) {
          process.stderr.write(
            `unknown projection "${positional[0] ?? ''}"; one of: ${PROJECTIONS.map((x) => x.name).join(', ')}\n`,
          );
          return 2;
        }
        const verify = opts.verify === true;
        const res = await replay(db, store, p, {
          swap: !verify,
          onProgress: (pr) => process.stderr.write(bar(pr.events, pr.total, pr.eventsPerSecond)),
        });
        process.stderr.write(
          `\nreplayed ${res.events} events in ${res.seconds.toFixed(1)} s (${Math.round(res.events / Math.max(res.seconds, 0.001))} events/s)\n`,
        );
        if (verify) {
          const live = await hashProjection(db, p);
          const rebuilt = await hashProjection(db, p, replayTables(p));
          await dropReplayTables(db, p);
          const same = JSON.stringify(live) === JSON.stringify(rebuilt);
          process.stdout.write(`${JSON.stringify({ projection: p.name, live, rebuilt, identical: same })}\n`);
          return same ? 0 : 1;
        }
        process.stdout.write(`${JSON.stringify({ projection: p.name, swapped: true })}\n`);
        return 0;
      }
      default:
        return 2;
    }
  } finally {
    await db.destroy();
  }
}

main().then(
  // Exit once standard output is written out: process.exit drops what a pipe has not taken yet (an export to a
  // reader slower than the last page lost its tail).
  (code) => process.stdout.write('', () => process.exit(code)),
  (e) => {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(1);
  },
);
