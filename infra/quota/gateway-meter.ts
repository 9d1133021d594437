/**
 * Adapts the PostgreSQL meter to the AI gateway's UsageMeter interface
 * (infra/ai/meter.ts). The reserved cost is an upper bound: every estimated
 * token priced at the provider's highest per-token price.
 */
import { PRICING } from '../../domain/pricing';
import type { ActualUsage, Reservation, ReserveRequest, UsageMeter } from '../ai/meter';
import type { PostgresUsageMeter, Reservation as PgReservation } from './meter';

function maxPricePerToken(provider: string): number {
  const rows = PRICING.filter((p) => p.provider === provider);
  return Math.max(
    0,
    ...rows.map((p) => ('input_cost_per_1m' in p ? Math.max(p.input_cost_per_1m, p.output_cost_per_1m) : 0) / 1e6),
  );
}

export function gatewayMeter(pg: PostgresUsageMeter): UsageMeter {
  const open = new Map<string, PgReservation>();
  const find = async (r: Reservation) =>
    open.get(r.id) ??
    pg.reserve({
      userId: r.userId,
      provider: r.provider,
      estimatedTokens: r.estimatedTokens,
      estimatedCost: r.estimatedTokens * maxPricePerToken(r.provider),
      idempotencyKey: r.idempotencyKey,
    });
  return {
    async reserve(req: ReserveRequest): Promise<Reservation> {
      const res = await pg.reserve({
        userId: req.userId,
        provider: req.provider,
        estimatedTokens: req.estimatedTokens,
        estimatedCost: req.estimatedTokens * maxPricePerToken(req.provider),
        idempotencyKey: req.idempotencyKey,
      });
      open.set(res.reservationId, res);
      return {
        id: res.reservationId,
        userId: req.userId,
        provider: req.provider,
        estimatedTokens: req.estimatedTokens,
        idempotencyKey: req.idempotencyKey,
      };
    },
    async settle(r: Reservation, actual: ActualUsage): Promise<void> {
      await pg.settle(await find(r), actual);
      open.delete(r.id);
    },
    async release(r: Reservation): Promise<void> {
      await pg.release(await find(r));
      open.delete(r.id);
    },
  };
}
