/**
 * Usage per user, billing period (YYYY-MM, UTC) and provider. Rows receive
 * increments from many events; increments commute, so live order and replay
 * order give the same totals. Serves the subscription usage routes.
 */
import type { Knex } from 'knex';
import { defineProjection } from './framework';

const T = 'usage_totals';

export const usageProjection = defineProjection({
  name: 'usage',
  migrationName: '0101_projection_usage',
  areas: ['usage'],
  tables: [T],
  keys: { [T]: ['user_id', 'billing_period', 'provider'] },
  async createTables(knex, name) {
    await knex.schema.createTable(name(T), (t) => {
      t.text('user_id').notNullable();
      t.string('billing_period', 7).notNullable();
      t.text('provider').notNullable();
      t.bigInteger('calls').notNullable().defaultTo(0);
      t.bigInteger('tokens_in').notNullable().defaultTo(0);
      t.bigInteger('tokens_out').notNullable().defaultTo(0);
      t.decimal('cost', 20, 8).notNullable().defaultTo(0);
      t.primary(['user_id', 'billing_period', 'provider']);
    });
  },
  handlers: {
    UsageRecorded: (e) => [
      {
        op: 'upsert',
        table: T,
        key: { user_id: e.data.user_id, billing_period: e.data.billing_period, provider: e.data.provider },
        insert: { calls: e.data.calls, tokens_in: e.data.tokens_in, tokens_out: e.data.tokens_out, cost: e.data.cost },
        update: {
          calls: { $inc: e.data.calls },
          tokens_in: { $inc: e.data.tokens_in },
          tokens_out: { $inc: e.data.tokens_out },
          cost: { $inc: e.data.cost },
        },
      },
    ],
  },
});

export interface ProviderUsage {
  provider: string;
  calls: number;
  tokens: number;
  tokens_in: number;
  tokens_out: number;
  cost: number;
}

/** Read query: per-provider totals of a user in one billing period. */
export async function usageByProvider(db: Knex, userId: string, period: string): Promise<ProviderUsage[]> {
  const rows = await db(T).where({ user_id: userId, billing_period: period }).orderBy('provider');
  return rows.map((r) => ({
    provider: r.provider,
    calls: Number(r.calls),
    tokens_in: Number(r.tokens_in),
    tokens_out: Number(r.tokens_out),
    tokens: Number(r.tokens_in) + Number(r.tokens_out),
    cost: Number(r.cost),
  }));
}

/** Read query: per-provider totals of a user in each of `periods` (periods without usage are absent). */
export async function usageByPeriods(
  db: Knex,
  userId: string,
  periods: string[],
): Promise<Map<string, ProviderUsage[]>> {
  const rows = await db(T)
    .where({ user_id: userId })
    .whereIn('billing_period', periods)
    .orderBy(['billing_period', 'provider']);
  const out = new Map<string, ProviderUsage[]>();
  for (const r of rows) {
    const list = out.get(r.billing_period) ?? [];
    list.push({
      provider: r.provider,
      calls: Number(r.calls),
      tokens_in: Number(r.tokens_in),
      tokens_out: Number(r.tokens_out),
      tokens: Number(r.tokens_in) + Number(r.tokens_out),
      cost: Number(r.cost),
    });
    out.set(r.billing_period, list);
  }
  return out;
}
