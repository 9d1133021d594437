/**
 * Shapes shared by every domain event. An area file (tasks.ts, usage.ts, ...)
 * declares its events as a discriminated union on `type` plus a JSON Schema per
 * payload (written with the builders of domain/schema.ts and the open objects
 * below); index.ts gathers them into one registry the event store validates
 * against on append and the relay uses to pick a topic.
 */
import { allRequired, withRequired } from '../schema';

export interface EventDefinition {
  /** Domain area; also the Kafka topic suffix. */
  area: string;
  /** Payload schema version; bump it (and keep an upcaster) when the payload changes incompatibly. */
  version: number;
  /** JSON Schema of `data`. */
  schema: Record<string, unknown>;
}

export type EventDefinitions<T extends string> = Record<T, EventDefinition>;

/** Event schemas say their objects are open: a field the schema does not name is accepted (JSON Schema's default). */
const open = { additionalProperties: true };
/** An open object (domain/schema.ts `allRequired`): every property required. */
export const openAllRequired = (properties: Record<string, unknown>) => allRequired(properties, open);
/** An open object (domain/schema.ts `withRequired`): those `required` names required. */
export const openWithRequired = (properties: Record<string, unknown>, required: string[]) =>
  withRequired(properties, required, open);
