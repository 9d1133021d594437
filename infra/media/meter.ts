/**
 * Metering of media work through the platform's usage meter (the same
 * PostgreSQL reservations, plan limits and UsageRecorded events as AI text
 * calls). Units (docs/video.md "Metering"):
 * - `render`: one call per started minute of rendered video, reserved when a
 *   render starts (a plan limit refuses it before any work), settled when the
 *   file is stored, released when the render fails or is cancelled;
 * - `tts_vendor`: one call per started 1,000 characters sent to the speech
 *   vendor, per scene, settled once the scene's speech is synthesised.
 * Prices come from domain/pricing.ts (requestCost); the reservation travels
 * through the workflow as plain data, so another activity can settle it.
 */
import { requestCost } from '../../domain/pricing';
import type { PostgresUsageMeter, Reservation } from '../quota/meter';

export type MeteredMedia = 'render' | 'tts_vendor';

export interface MediaReserve {
  userId: string;
  provider: MeteredMedia;
  units: number;
  /** Workflow id + activity id (+ suffix): the same key reserves and settles once. */
  idempotencyKey: string;
}

export type MediaReservation = Reservation & { units: number };

export interface MediaMeter {
  reserve(r: MediaReserve): Promise<MediaReservation>;
  /** Records the usage once (a retried settle does nothing); `model` names what did the work. */
  settle(r: MediaReservation, model: string): Promise<void>;
  release(r: MediaReservation): Promise<void>;
}

/** Started minutes of `seconds` of video (at least 1). */
export const renderMinutes = (seconds: number) => Math.max(1, Math.ceil(seconds / 60 - 1e-9));
/** Started thousands of characters (at least 1). */
export const speechKiloChars = (chars: number) => Math.max(1, Math.ceil(chars / 1000));

export function mediaMeter(pg: PostgresUsageMeter): MediaMeter {
  return {
    async reserve(r) {
      const cost = requestCost(r.provider, r.units);
      const res = await pg.reserve({
        userId: r.userId,
        provider: r.provider,
        estimatedTokens: 0,
        estimatedCost: cost,
        idempotencyKey: r.idempotencyKey,
        calls: r.units,
      });
      return { ...res, units: r.units };
    },
    async settle(r, model) {
      await pg.settle(r, {
        provider: r.provider,
        model,
        tokens_in: 0,
        tokens_out: 0,
        cost: requestCost(r.provider as MeteredMedia, r.units),
      });
    },
    async release(r) {
      await pg.release(r);
    },
  };
}

/** A meter that records nothing (tools, the benchmark). */
export const noopMediaMeter: MediaMeter = {
  async reserve(r) {
    return {
      reservationId: r.idempotencyKey,
      userId: r.userId,
      billingPeriod: '',
      provider: r.provider,
      amounts: {},
      limits: {},
      alreadySettled: false,
      units: r.units,
    };
  },
  async settle() {},
  async release() {},
};
