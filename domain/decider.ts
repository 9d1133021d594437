/**
 * The shape of every write decision (Emmett's decider): `evolve` folds a
 * stream's events into the state a decision needs, `decide` turns a command
 * and that state into the events to append — or throws a domain error
 * (NotFoundError, ConflictError, ValidationError) when the command is refused.
 * Both are pure: whatever a decision needs from the outside (the clock, new
 * ids, a secret's fingerprint, a DNS check) is looked up before and carried in
 * the command. infra/eventstore/command.ts reads, folds, decides and appends.
 */
import type { DomainEvent } from './events';

/**
 * An event as a fold sees it: stored events also carry the time they were recorded and their global position
 * (the id of what the event creates, where the area says so: an alert's id is its AlertRaised's position).
 */
export type Stored<E extends DomainEvent = DomainEvent> = E & { recordedAt?: string; globalPosition?: string };

export interface Decider<C, S> {
  /** State of a stream with no events. */
  initialState: S;
  /** Folds one event (events of other areas are ignored). */
  evolve(state: S, event: Stored): S;
  /** The events that carry out `command` on `state`; [] when there is nothing to do. */
  decide(command: C, state: S): DomainEvent[];
}

/** Folds `events` with a decider's evolve from its initial state. */
export const fold = <S>(d: Pick<Decider<unknown, S>, 'evolve' | 'initialState'>, events: readonly Stored[]): S =>
  events.reduce(d.evolve, d.initialState);

/**
 * The decider of a stream of facts (an analysis was made, an action was taken, rows were imported, a connection
 * changed): nothing recorded before changes what is recorded next, so a command is the events of the area's union
 * it records. Run with `expect: 'new'` (a stream of one fact, under a fresh id) or `'any'` (an append-only log) by
 * infra/eventstore/command.ts `handleCommands`.
 */
export const factsDecider = <E extends DomainEvent>(): Decider<E[], null> => ({
  initialState: null,
  evolve: () => null,
  decide: (events) => events,
});
