/**
 * The usage meter the AI gateway reports to: reserve before a vendor call,
 * settle with the real usage after it, release when it failed.
 *
 * Contract for implementations (the PostgreSQL meter enforces plan limits
 * with conditional updates; see issue 5):
 * - `reserve` must refuse (throw) when usage + reservation would exceed a
 *   limit of the user's plan, and must be idempotent per `idempotencyKey`: a
 *   Temporal retry of the same activity reserves once, not twice.
 * - `settle` records the actual usage exactly once per reservation (it is
 *   called again on retry after a crash between vendor call and settlement,
 *   and must then do nothing) and frees the unused part of the reservation.
 * - `release` frees a reservation whose call failed; releasing an already
 *   settled or released reservation does nothing.
 * The gateway calls the meter for every provider, `local` included (cost 0),
 * so an implementation decides which limits apply to which provider.
 */

export type MeteredProvider = 'vendor_a' | 'vendor_b' | 'llama' | 'local';

export interface ReserveRequest {
  userId: string;
  provider: MeteredProvider;
  /** Prompt tokens (counted) + the completion budget (maxTokens). */
  estimatedTokens: number;
  /** Workflow id + activity id: the same key on every retry of one call. */
  idempotencyKey: string;
}

export interface Reservation {
  id: string;
  userId: string;
  provider: MeteredProvider;
  estimatedTokens: number;
  idempotencyKey: string;
}

export interface ActualUsage {
  provider: MeteredProvider;
  model: string;
  tokens_in: number;
  tokens_out: number;
  /** US dollars, from domain/pricing.ts. */
  cost: number;
}

export interface UsageMeter {
  reserve(req: ReserveRequest): Promise<Reservation>;
  settle(reservation: Reservation, actual: ActualUsage): Promise<void>;
  release(reservation: Reservation): Promise<void>;
}

/** A meter that enforces nothing and records nothing (unit tests, local tools). */
export const noopMeter: UsageMeter = {
  async reserve(req) {
    return { id: `noop:${req.idempotencyKey}`, ...req };
  },
  async settle() {},
  async release() {},
};

/** A meter that records every call in memory, for tests that assert the reserve/settle/release sequence. */
export function recordingMeter(): UsageMeter & {
  calls: Array<{ op: 'reserve' | 'settle' | 'release'; key: string; actual?: ActualUsage }>;
} {
  const calls: Array<{ op: 'reserve' | 'settle' | 'release'; key: string; actual?: ActualUsage }> = [];
  return {
    calls,
    async reserve(req) {
      calls.push({ op: 'reserve', key: req.idempotencyKey });
      return { id: `rec:${req.idempotencyKey}`, ...req };
    },
    async settle(res, actual) {
      calls.push({ op: 'settle', key: res.idempotencyKey, actual });
    },
    async release(res) {
      calls.push({ op: 'release', key: res.idempotencyKey });
    },
  };
}
