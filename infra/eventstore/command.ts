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
import type { EventMetadata, EventStoreOps, ExpectedVersion, RecordedEvent } from './port';

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
