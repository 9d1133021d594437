/**
 * Shapes shared by every domain event. An area file (tasks.ts, usage.ts, ...)
 * declares its events as a discriminated union on `type` plus a JSON Schema per
 * payload; index.ts gathers them into one registry the event store validates
 * against on append and the relay uses to pick a topic.
 */
export interface EventDefinition {
  /** Domain area; also the Kafka topic suffix. */
  area: string;
  /** Payload schema version; bump it (and keep an upcaster) when the payload changes incompatibly. */
  version: number;
  /** JSON Schema of `data`. */
  schema: Record<string, unknown>;
}

export type EventDefinitions<T extends string> = Record<T, EventDefinition>;

/** Schema helpers: keep area files short and the schemas strict. */
export const str = { type: 'string', minLength: 1 } as const;
export const anyStr = { type: 'string' } as const;
export const int = { type: 'integer' } as const;
export const num = { type: 'number' } as const;
export const bool = { type: 'boolean' } as const;
export const isoTime = { type: 'string', format: 'date-time' } as const;
export const obj = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: true,
});
