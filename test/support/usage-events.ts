/** A `UsageRecorded` event of `calls` calls for `userId` (projection tests of the usage totals). */
import { randomUUID } from 'node:crypto';

export const usageRecorded = (userId: string, calls: number) => ({
  type: 'UsageRecorded' as const,
  data: {
    user_id: userId,
    provider: 'p',
    model: 'm',
    calls,
    tokens_in: 1,
    tokens_out: 1,
    cost: 0.1,
    billing_period: '2026-11',
    idempotency_key: randomUUID(),
  },
});
