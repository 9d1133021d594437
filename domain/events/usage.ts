/**
 * Metered vendor usage: one UsageRecorded per settled vendor call, stream
 * `usage-<user_id>`. idempotency_key = workflow id + activity id, so a retried
 * activity can never charge twice (the projection also de-duplicates on it).
 */
import { EventDefinitions, openAllRequired } from './types';
import { int, nonEmptyString, num } from '../schema';

export interface UsageRecordedData {
  user_id: string;
  provider: string;
  model: string;
  calls: number;
  tokens_in: number;
  tokens_out: number;
  cost: number;
  /** YYYY-MM, UTC */
  billing_period: string;
  idempotency_key: string;
}

export type UsageEvent = { type: 'UsageRecorded'; data: UsageRecordedData };

export const usageEvents: EventDefinitions<UsageEvent['type']> = {
  UsageRecorded: {
    area: 'usage',
    version: 1,
    schema: openAllRequired({
      user_id: nonEmptyString,
      provider: nonEmptyString,
      model: { type: 'string' },
      calls: { ...int, minimum: 0 },
      tokens_in: { ...int, minimum: 0 },
      tokens_out: { ...int, minimum: 0 },
      cost: { ...num, minimum: 0 },
      billing_period: { type: 'string', pattern: '^\\d{4}-(0[1-9]|1[0-2])$' },
      idempotency_key: nonEmptyString,
    }),
  },
};

export const usageStream = (userId: string) => `usage-${userId}`;
