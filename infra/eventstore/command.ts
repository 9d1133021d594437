/**
 * Runs a command against one stream: read and fold it, decide (pure), append
 * with the version that was read. When another writer got there first
 * (ConcurrencyError) the whole read-fold-decide-append runs again on the new
 * state, a few times; the decision may then refuse (e.g. "already revoked").
 * Inside a transaction (a StoreTx) there is no second try: the caller's
 * transaction decides as a whole.
 */
import type { Decider } from '../../domain/decider';
import type { DomainEvent } from '../../domain/events';
import { ConcurrencyError } from './errors';
import { AppError } from '../../domain/errors';
import type { EventMetadata, EventStoreOps, ExpectedVersion, RecordedEvent, StreamAppend } from './port';

export interface CommandOptions {
  metadata?: EventMetadata;
  /** Runs after a conflict (default 3; none inside a transaction). */
  retries?: number;
  /**
   * Append the decided events to this stream instead of the decided one (a
   * decision on an endpoint that starts a delivery stream), with this expectation.
   */
  appendTo?: { streamId: string; expectedVersion: ExpectedVersion };
}

export interface CommandResult<S> {
  /** State before the decision. */
  state: S;
  /** The events appended (empty when the decision was "nothing to do"). */
  events: RecordedEvent[];
  /** The decided events as given to the store. */
  decided: DomainEvent[];
}

export async function handleCommand<C, S>(
  store: EventStoreOps,
  streamId: string,
  decider: Decider<C, S>,
  command: C,
  opts: CommandOptions = {},
): Promise<CommandResult<S>> {
  const inTx = 'inTransaction' in store;
  const retries = inTx ? 0 : (opts.retries ?? 3);
  for (let attempt = 0; ; attempt++) {
    const { state, version } = await store.aggregateStream<S>(streamId, decider.evolve, decider.initialState);
    const decided = decider.decide(command, state);
    if (decided.length === 0) return { state, events: [], decided };
    try {
      const target = opts.appendTo ?? { streamId, expectedVersion: version };
      const r = await store.append(target.streamId, decided, target.expectedVersion, opts.metadata);
      return { state, events: r.events, decided };
    } catch (e) {
      if (!(e instanceof ConcurrencyError) || attempt >= retries || opts.appendTo) throw e;
    }
  }
}

/**
 * How a stream of a multi-stream command is read and appended:
 * - `read` (default): folded, decided on its state, appended at the version read;
 * - `new`: a stream the command creates (a fresh id): not read, decided on the decider's initial state, appended
 *   with `no_stream` (an existing stream is a ConcurrencyError, never retried);
 * - `any`: an append-only log whose decisions do not depend on its past: not read, appended at any version.
 */
export type StreamExpectation = 'read' | 'new' | 'any';

/** One stream's part of `handleCommands`. */
export interface StreamCommand<C = unknown, S = unknown> {
  streamId: string;
  decider: Decider<C, S>;
  /**
   * The command, or a function making it from the states of the call's `read` streams (by stream id), read in the
   * same attempt: a decision on one stream that depends on another's state (a key's rotation names its successor).
   */
  command: C | ((states: ReadonlyMap<string, unknown>) => C);
  expect?: StreamExpectation;
}

/** A `StreamCommand` checked against its decider (the decider fixes the command's and the state's types). */
export const streamCommand = <C, S>(c: StreamCommand<C, S>): StreamCommand<C, S> => c;

export interface StreamOutcome {
  streamId: string;
  /** State before the decision (the initial state for `new` and `any` streams). */
  state: unknown;
  /** The decided events as given to the store. */
  decided: DomainEvent[];
  /** The events appended. */
  events: RecordedEvent[];
  /** With `partial`: the domain error that refused this stream's command (nothing appended to it). */
  refused?: AppError;
}

export interface CommandsOptions {
  metadata?: EventMetadata;
  /** Runs after a conflict (default 3; none inside a transaction). */
  retries?: number;
  /**
   * A command refused by its decider (a domain error, AppError) leaves its stream unchanged and is reported in its
   * outcome, and the other streams' decisions are appended (a bulk update). Without it the refusal is thrown.
   */
  partial?: boolean;
}

/**
 * Runs commands on several streams as one write: every stream read and decided (read-fold-decide, as
 * `handleCommand`), then all decided events appended in one transaction (`appendMany`), each stream at the version
 * it was read at — all or nothing. When another writer got to one of the read streams first (ConcurrencyError) the
 * whole call runs again on the new states, a few times. Inside a transaction there is no second try.
 */
export async function handleCommands(
  store: EventStoreOps,
  commands: readonly StreamCommand[],
  opts: CommandsOptions = {},
): Promise<{ outcomes: StreamOutcome[]; events: RecordedEvent[] }> {
  const inTx = 'inTransaction' in store;
  const retries = inTx ? 0 : (opts.retries ?? 3);
  for (let attempt = 0; ; attempt++) {
    const read = new Map<string, { state: unknown; version: ExpectedVersion }>();
    for (const c of commands) {
      const expect = c.expect ?? 'read';
      if (expect === 'read') {
        const { state, version } = await store.aggregateStream(c.streamId, c.decider.evolve, c.decider.initialState);
        read.set(c.streamId, { state, version });
      } else read.set(c.streamId, { state: c.decider.initialState, version: expect === 'new' ? 'no_stream' : 'any' });
    }
    const states = new Map([...read].map(([id, r]) => [id, r.state]));
    const outcomes: StreamOutcome[] = [];
    const appends: StreamAppend[] = [];
    for (const c of commands) {
      const { state, version } = read.get(c.streamId)!;
      const command =
        typeof c.command === 'function' ? (c.command as (s: typeof states) => unknown)(states) : c.command;
      try {
        const decided = c.decider.decide(command, state);
        outcomes.push({ streamId: c.streamId, state, decided, events: [] });
        if (decided.length) appends.push({ streamId: c.streamId, events: decided, expectedVersion: version });
      } catch (e) {
        if (!(opts.partial && e instanceof AppError)) throw e;
        outcomes.push({ streamId: c.streamId, state, decided: [], events: [], refused: e });
      }
    }
    try {
      const written = appends.length ? await store.appendMany(appends, opts.metadata) : [];
      written.forEach((w, i) => (outcomes.find((o) => o.streamId === appends[i].streamId)!.events = w.events));
      return { outcomes, events: written.flatMap((w) => w.events) };
    } catch (e) {
      // A stream read may have moved on since: decide again. A `new` stream that exists is no race to retry.
      const readConflict =
        e instanceof ConcurrencyError &&
        commands.some((c) => (c.expect ?? 'read') === 'read' && c.streamId === e.streamId);
      if (!readConflict || attempt >= retries) throw e;
    }
  }
}
