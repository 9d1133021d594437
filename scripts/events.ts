/**
 * Analysts' command-line tool over the event store and projections.
 *
 *   npm run events -- tail   [--type T] [--stream S] [--user U] [--from-start]   follow new events (JSON Lines)
 *   npm run events -- export [--stream S | --type T] [--since ISO] [--until ISO] [--out FILE]
 *   npm run events -- stats                                                       counts per type, relay and projection lag
 *   npm run events -- replay <projection> [--verify]                              rebuild from zero; --verify compares without swapping
 *
 * Reads DATABASE_URL, KAFKA_BROKERS and KAFKA_TOPIC_PREFIX like every process.
 *
 * `tail` and `export` write every event with every field, but no secret: the values of secret-bearing fields (key
 * and token hashes, fingerprints, PKCE challenges; domain/redaction.ts) are replaced by "[redacted]" and credential
 * texts in any string are cut to their public id. A file of events travels (to analysts, notebooks, tickets) and the
 * hashes are lookup keys of live credentials; no analysis needs them, so there is no option to keep them.
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
  const [cmd, ...rest] = process.argv.slice(2);
  const { positional, opts } = flags(rest);
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
        while (!stop) {
          const events = await store.readAll(cp, 1000);
          for (const e of events) if (matches(e, opts)) process.stdout.write(`${JSON.stringify(redactSecrets(e))}\n`);
          if (events.length) cp = checkpointOf(events[events.length - 1]);
          else await new Promise((r) => setTimeout(r, 200));
        }
        return 0;
      }
      case 'export': {
        if (!str(opts.stream) && !str(opts.type) && !str(opts.since) && !str(opts.until) && !str(opts.user)) {
          process.stderr.write('export needs --stream, --type, --user, --since or --until\n');
          return 2;
        }
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
        for (let after: Checkpoint = START; ;) {
          const rows = await page(after);
          if (rows.length === 0) break;
          for (const row of rows) {
            const e = rowToEvent(row);
            if (!out.write(`${JSON.stringify(redactSecrets(e))}\n`)) await new Promise((r) => out.once('drain', r));
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
        process.stderr.write('usage: npm run events -- tail|export|stats|replay <projection> [--verify]\n');
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
