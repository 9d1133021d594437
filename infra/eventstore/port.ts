/**
 * The event store port: the only way the platform writes state. Implemented by
 * PostgresEventStore (default); the contract tests in test/int/eventstore run
 * against every configured implementation.
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

export interface RecordedEvent<E extends DomainEvent = DomainEvent> {
  eventId: string;
  streamId: string;
  /** 0-based position in the stream; the stream's version is the last event's position. */
  streamPosition: number;
  globalPosition: string;
  transactionId: string;
  type: E['type'];
  schemaVersion: number;
  data: E['data'];
  metadata: EventMetadata;
  recordedAt: string;
}

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

export interface EventStore {
  append(streamId: string, events: NewEvent[], expectedVersion: ExpectedVersion, metadata?: EventMetadata): Promise<AppendResult>;
  /**
   * Appends to several streams in one transaction: all or nothing. Each stream
   * is checked against its own expected version; one conflict fails the whole
   * call with that stream's ConcurrencyError. A stream may appear once.
   */
  appendMany(appends: StreamAppend[], metadata?: EventMetadata): Promise<AppendResult[]>;
  readStream(streamId: string, fromPosition?: number): Promise<RecordedEvent[]>;
  /** Events after `from`, in commit order, never past a transaction still in flight. */
  readAll(from: Checkpoint, limit: number): Promise<RecordedEvent[]>;
  /** readAll, each event already serialised (for the relay: no parse and re-serialise per event). */
  readAllEncoded(from: Checkpoint, limit: number): Promise<EncodedEvent[]>;
}

export function checkpointOf(e: Pick<RecordedEvent, 'transactionId' | 'globalPosition'>): Checkpoint {
  return { transactionId: e.transactionId, globalPosition: e.globalPosition };
}
