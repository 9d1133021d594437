/**
 * The event store port: the only way the platform writes state. Implemented by
 * the PostgreSQL adapter (createEventStore in ./index.ts); the contract tests in
 * test/int/eventstore run against every implementation.
 *
 * Everything a caller needs is here, so nothing outside infra/eventstore/
 * types against the adapter or reads its tables:
 * - typed reads: a RecordedEvent keeps `type` and `data` linked (narrowing on
 *   `type` narrows `data`), so callers never cast event data;
 * - transactions: `store.transaction(tx => …)` gives a store bound to one
 *   transaction; other PostgreSQL writers in infra/ (quota, secrets) join it;
 * - idempotent append (`appendOnce`): the event id is the idempotency key;
 * - `aggregateStream`: read and fold a stream, with the version to append at.
 */
import type { DomainEvent } from '../../domain/events';

/** A number (the stream's current version), "no_stream" (must not exist yet) or "any". */
export type ExpectedVersion = number | 'no_stream' | 'any';

/** Who and what caused an event. Every field is optional; user_id is set on all user-owned streams. */
export interface EventMetadata {
  user_id?: string;
  correlation_id?: string;
  causation_id?: string;
  request_id?: string;
  workflow_id?: string;
  [key: string]: unknown;
}

export type NewEvent = DomainEvent & { eventId?: string; metadata?: EventMetadata };

/** Position in the global log, in commit order. Both parts are decimal strings (64-bit). */
export interface Checkpoint {
  transactionId: string;
  globalPosition: string;
}

export const START: Checkpoint = { transactionId: '0', globalPosition: '0' };

/** What the store adds to every event it records. */
export interface RecordedFields {
  eventId: string;
  streamId: string;
  /** 0-based position in the stream; the stream's version is the last event's position. */
  streamPosition: number;
  globalPosition: string;
  transactionId: string;
  schemaVersion: number;
  metadata: EventMetadata;
  recordedAt: string;
}

/**
 * A stored event. Distributes over the union, so `RecordedEvent` (all events)
 * narrows on `type`: `if (e.type === 'PlanChanged') e.data.plan` needs no cast.
 */
export type RecordedEvent<E extends DomainEvent = DomainEvent> = E extends DomainEvent
  ? RecordedFields & { type: E['type']; data: E['data'] }
  : never;

export interface AppendResult {
  /** The stream version after the append (pass it as expectedVersion next time). */
  nextExpectedVersion: number;
  events: RecordedEvent[];
}

/** One stream's part of an appendMany. */
export interface StreamAppend {
  streamId: string;
  events: NewEvent[];
  expectedVersion: ExpectedVersion;
}

/** An event already serialised as the JSON of its RecordedEvent, with what a relay routes and checkpoints by. */
export interface EncodedEvent {
  streamId: string;
  type: string;
  transactionId: string;
  globalPosition: string;
  json: string;
}

/** The outcome of appendOnce: the stored event, and whether this call stored it. */
export interface AppendOnceResult {
  appended: boolean;
  event: RecordedEvent;
}

/** A folded stream: its state and the version to append at next (`no_stream` when it has no events). */
export interface Aggregate<S> {
  state: S;
  version: number | 'no_stream';
  events: RecordedEvent[];
}

/** What a store can do inside or outside a transaction. */
export interface EventStoreOps {
  append(
    streamId: string,
    events: NewEvent[],
    expectedVersion: ExpectedVersion,
    metadata?: EventMetadata,
  ): Promise<AppendResult>;
  /**
   * Appends to several streams in one transaction: all or nothing. Each stream
   * is checked against its own expected version; one conflict fails the whole
   * call with that stream's ConcurrencyError. A stream may appear once.
   */
  appendMany(appends: StreamAppend[], metadata?: EventMetadata): Promise<AppendResult[]>;
  /**
   * Appends `event` unless an event with its id is stored already (the event id
   * is the idempotency key: derive it from what makes the write unique, e.g.
   * workflow id + activity id). Either way resolves with the stored event.
   * Expected version defaults to `any`; a conflicting version still throws
   * ConcurrencyError when the event was not stored before.
   */
  appendOnce(
    streamId: string,
    event: NewEvent & { eventId: string },
    metadata?: EventMetadata,
    expectedVersion?: ExpectedVersion,
  ): Promise<AppendOnceResult>;
  readStream(streamId: string, fromPosition?: number): Promise<RecordedEvent[]>;
  /** Reads the stream and folds it with `evolve` from `initial`. */
  aggregateStream<S>(
    streamId: string,
    evolve: (state: S, event: RecordedEvent) => S,
    initial: S,
  ): Promise<Aggregate<S>>;
  /** The current version of each named stream that exists. */
  streamVersions(streamIds: string[]): Promise<Map<string, number>>;
  /** True when the stream holds an event of this type (e.g. "was this delivery ever scheduled"). */
  hasEventOfType(streamId: string, type: DomainEvent['type']): Promise<boolean>;
  /**
   * What the workflow `workflowId` and its children (ids `<workflowId>-...`) wrote: per stream and event type, the
   * position of the last such event. Activities' appends carry their workflow's id (infra/eventstore/ambient.ts).
   */
  writtenBy(workflowId: string): Promise<WrittenEvent[]>;
}

/** One stream and event type a workflow wrote, at the position of its last such event. */
export interface WrittenEvent {
  streamId: string;
  type: string;
  streamPosition: number;
}

/** A store bound to one open transaction (see EventStore.transaction). */
export interface StoreTx extends EventStoreOps {
  readonly inTransaction: true;
}

export interface EventStore extends EventStoreOps {
  /** Events after `from`, in commit order, never past a transaction still in flight. */
  readAll(from: Checkpoint, limit: number): Promise<RecordedEvent[]>;
  /** readAll, each event already serialised (for the relay: no parse and re-serialise per event). */
  readAllEncoded(from: Checkpoint, limit: number): Promise<EncodedEvent[]>;
  /** The last event stored (in commit order), or START for an empty store. */
  lastCheckpoint(): Promise<Checkpoint>;
  /** How many events are stored after `from` (all of them from START). */
  countAfter(from: Checkpoint): Promise<number>;
  /** How many events of each type are stored. */
  countByType(): Promise<Record<string, number>>;
  /**
   * Runs `work` in one transaction: everything done through `tx` (and by infra
   * writers given `tx`) commits together or not at all.
   */
  transaction<T>(work: (tx: StoreTx) => Promise<T>): Promise<T>;
}

export function checkpointOf(e: Pick<RecordedFields, 'transactionId' | 'globalPosition'>): Checkpoint {
  return { transactionId: e.transactionId, globalPosition: e.globalPosition };
}

/** The position to append at after reading `events` of a stream (`no_stream` when there were none). */
export const versionAfter = (events: readonly { streamPosition: number }[]): number | 'no_stream' =>
  events.length ? events[events.length - 1].streamPosition : 'no_stream';
