/**
 * Activities get their dependencies from this factory, never from globals, so
 * the worker wires real adapters and tests can wire their own.
 */
import type { Logger } from 'pino';

export interface ActivityDeps {
  logger: Logger;
}

export function createActivities(_deps: ActivityDeps) {
  return {
    /** No-op round trip (smoke test, benchmark ceiling). */
    async echo(message: string): Promise<string> {
      return message;
    },
  };
}

export type Activities = ReturnType<typeof createActivities>;
