/**
 * The outreach policy engine: one check for POST /policy/validate and for
 * every send (first sends and follow-ups), atomic and failing closed.
 *
 * One PostgreSQL transaction per check, in a fixed order (so concurrent
 * checks lock rows in the same order and never deadlock):
 *   legal basis of the contact → suppression (address and @domain) →
 *   idempotency claim (recipient + subject, conditional upsert) →
 *   sender mailbox counter (conditional upsert under the warm-up or daily cap) →
 *   recipient domain counter (conditional upsert under its cap) → contact's legal basis recorded.
 * A conditional upsert that updates no row means the cap is reached: the
 * transaction rolls back, so a refused send consumes nothing. Concurrent
 * sends queue on the counter row's lock, so with a cap of 10 exactly 10 of
 * any number of concurrent sends get through.
 *
 * validate runs the very same statements and rolls back (a dry run). A send's
 * decision is stored under its attempt id, so a retried activity gets the same
 * answer and never counts twice; release() gives a failed delivery's counts back.
 * Any error (database down, lock wait over the time-out) refuses: fail closed.
 */
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { DEFAULT_LEGAL_BASIS, LEGAL_BASES, LegalBasis } from '../../domain/outreach/legal';
import { domainOf } from '../../domain/outreach/normalize';
import {
  PolicyResult,
  PolicySettings,
  REASONS,
  senderCapOn,
  subjectKey as keyOfSubject,
} from '../../domain/outreach/policy';

export type { PolicyResult };

export interface PolicyRequest {
  userId: string;
  workspaceId: string;
  recipient: string;
  sender: string;
  /** Checked for idempotency when given. */
  subject?: string;
  /** What the idempotency claim is keyed by (default: the normalised subject; follow-ups add their step). */
  subjectKey?: string;
  /** Basis recorded for a contact seen for the first time (default legitimate interest). */
  legalBasis?: LegalBasis;
}

class Outcome extends Error {
  constructor(readonly result: PolicyResult) {
    super(result.reason ?? 'allowed');
  }
}

export interface PolicyEngineOptions {
  settings: PolicySettings;
  /** Longest wait for a row lock, and for one statement (ms); past it the check refuses. */
  lockTimeoutMs?: number;
  now?: () => Date;
  logger?: Pick<Logger, 'error'>;
}

export interface PolicyEngine {
  evaluate(req: PolicyRequest): Promise<PolicyResult>;
  reserve(req: PolicyRequest, attemptId: string): Promise<PolicyResult>;
  release(attemptId: string): Promise<void>;
  /** Whether an address (or its @domain) is on the workspace's suppression list now. */
  isSuppressed(userId: string, workspaceId: string, email: string): Promise<boolean>;
  /** Why an address may not be written to now (suppressed address or domain), undefined when it may. */
  suppressionOf(userId: string, workspaceId: string, email: string): Promise<string | undefined>;
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

export class PostgresPolicyEngine implements PolicyEngine {
  private readonly s: PolicySettings;
  private readonly lockTimeoutMs: number;
  private readonly now: () => Date;

  constructor(
    private readonly db: Knex,
    private readonly opts: PolicyEngineOptions,
  ) {
    this.s = opts.settings;
    this.lockTimeoutMs = opts.lockTimeoutMs ?? 5000;
    this.now = opts.now ?? (() => new Date());
  }

  /** Dry run: the same statements as a send, rolled back. */
  async evaluate(req: PolicyRequest): Promise<PolicyResult> {
    try {
      await this.db.transaction(async (trx) => {
        throw new Outcome(await this.check(trx, req, undefined));
      });
    } catch (e) {
      if (e instanceof Outcome) return e.result;
      return this.unavailable(req, e);
    }
    throw new Error('unreachable');
  }

  async reserve(req: PolicyRequest, attemptId: string): Promise<PolicyResult> {
    try {
      const prior = await this.db('outreach_policy_reservations').where({ attempt_id: attemptId }).first();
      if (prior) return prior.result as PolicyResult;
      return await this.db.transaction((trx) => this.check(trx, req, attemptId));
    } catch (e) {
      if (!(e instanceof Outcome)) return this.unavailable(req, e);
      // Refused: remember the answer, so a retried activity gets it again.
      await this.db('outreach_policy_reservations')
        .insert({
          attempt_id: attemptId,
          user_id: req.userId,
          workspace_id: req.workspaceId,
          status: 'refused',
          day: isoDay(this.now()),
          counters: JSON.stringify([]),
          result: JSON.stringify(e.result),
        })
        .onConflict('attempt_id')
        .ignore()
        .catch(() => undefined);
      return e.result;
    }
  }

  /** Gives a reservation's counts and idempotency claim back (a delivery that failed). Idempotent. */
  async release(attemptId: string): Promise<void> {
    await this.db.transaction(async (trx) => {
      const r = await trx.raw(
        `UPDATE outreach_policy_reservations SET status = 'released'
          WHERE attempt_id = ? AND status = 'reserved'
          RETURNING user_id, workspace_id, to_char(day, 'YYYY-MM-DD') AS day, counters`,
        [attemptId],
      );
      const row = r.rows[0];
      if (!row) return;
      for (const counter of row.counters as string[])
        await trx.raw(
          `UPDATE outreach_policy_counters SET count = greatest(count - 1, 0)
            WHERE user_id = ? AND workspace_id = ? AND counter = ? AND day = ?`,
          [row.user_id, row.workspace_id, counter, row.day],
        );
      await trx('outreach_send_claims').where({ attempt_id: attemptId }).delete();
    });
  }

  isSuppressed(userId: string, workspaceId: string, email: string): Promise<boolean> {
    return isSuppressed(this.db, userId, workspaceId, email);
  }

  suppressionOf(userId: string, workspaceId: string, email: string): Promise<string | undefined> {
    return suppressionOf(this.db, userId, workspaceId, email);
  }

  private unavailable(req: PolicyRequest, e: unknown): PolicyResult {
    this.opts.logger?.error({ err: e, user_id: req.userId }, 'outreach policy check failed: refusing (fail closed)');
    return {
      allowed: false,
      reason: REASONS.unavailable,
      legal_basis: LEGAL_BASES[req.legalBasis ?? DEFAULT_LEGAL_BASIS],
      counts: { sender_today: 0, recipient_domain_today: 0, same_subject_in_window: 0 },
      limits: {
        sender_daily_cap: this.s.senderDailyCap,
        recipient_domain_daily_cap: this.s.domainDailyCap,
        warmup_day: null,
        idempotency_window_hours: this.s.idempotencyWindowHours,
      },
    };
  }

  /**
   * The check in `trx`. Resolves with the allowed result when `attemptId` is given (the transaction commits
   * the reservation); throws Outcome otherwise (refusal, or the end of a dry run), which rolls it back.
   */
  private async check(trx: Knex.Transaction, req: PolicyRequest, attemptId: string | undefined): Promise<PolicyResult> {
    const ms = Math.max(1, Math.floor(this.lockTimeoutMs));
    await trx.raw(`SET LOCAL lock_timeout = ${ms}`);
    await trx.raw(`SET LOCAL statement_timeout = ${ms * 2}`);
    const now = this.now();
    const day = isoDay(now);
    const recipient = req.recipient.trim().toLowerCase();
    const sender = req.sender.trim().toLowerCase();
    const domain = domainOf(recipient);
    const scope = { user_id: req.userId, workspace_id: req.workspaceId };
    const senderCounter = `sender:${sender}`;
    const domainCounter = `domain:${domain}`;

    const contact = await trx('outreach_contacts')
      .where({ ...scope, email: recipient })
      .first();
    const basisKey: LegalBasis = (contact?.legal_basis as LegalBasis) ?? req.legalBasis ?? DEFAULT_LEGAL_BASIS;

    await trx.raw(
      `INSERT INTO outreach_senders (user_id, workspace_id, sender, first_day) VALUES (?, ?, ?, ?)
       ON CONFLICT DO NOTHING`,
      [req.userId, req.workspaceId, sender, day],
    );
    const first = await trx.raw(
      `SELECT (?::date - first_day) AS day_index FROM outreach_senders WHERE user_id = ? AND workspace_id = ? AND sender = ?`,
      [day, req.userId, req.workspaceId, sender],
    );
    const { cap: senderCap, warmupDay } = senderCapOn(this.s, Number(first.rows[0]?.day_index ?? 0));
    const current = await trx('outreach_policy_counters')
      .where({ ...scope, day })
      .whereIn('counter', [senderCounter, domainCounter])
      .select('counter', 'count');
    const countOf = (c: string) => Number(current.find((r) => r.counter === c)?.count ?? 0);
    const key = req.subjectKey ?? (req.subject ? keyOfSubject(req.subject) : undefined);
    const windowStart = new Date(now.getTime() - this.s.idempotencyWindowHours * 3600_000).toISOString();
    const claim = key
      ? await trx('outreach_send_claims')
          .where({ ...scope, recipient, subject_key: key })
          .andWhere('claimed_at', '>', windowStart)
          .first()
      : undefined;
    const result: PolicyResult = {
      allowed: true,
      reason: null,
      legal_basis: LEGAL_BASES[basisKey] ?? basisKey,
      counts: {
        sender_today: countOf(senderCounter),
        recipient_domain_today: countOf(domainCounter),
        same_subject_in_window: claim ? 1 : 0,
      },
      limits: {
        sender_daily_cap: senderCap,
        recipient_domain_daily_cap: this.s.domainDailyCap,
        warmup_day: warmupDay,
        idempotency_window_hours: this.s.idempotencyWindowHours,
      },
    };
    const refuse = (reason: string) => new Outcome({ ...result, allowed: false, reason });

    const suppressed = await trx('outreach_suppression_index')
      .where(scope)
      .whereIn('entry', [recipient, `@${domain}`])
      .select('entry');
    if (suppressed.some((r) => r.entry === recipient)) throw refuse(REASONS.suppressedAddress(recipient));
    if (suppressed.length) throw refuse(REASONS.suppressedDomain(domain));

    if (key) {
      const claimed = await trx.raw(
        `INSERT INTO outreach_send_claims AS c (user_id, workspace_id, recipient, subject_key, attempt_id, claimed_at)
           VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (user_id, workspace_id, recipient, subject_key)
           DO UPDATE SET attempt_id = excluded.attempt_id, claimed_at = excluded.claimed_at
           WHERE c.claimed_at <= ?
         RETURNING 1`,
        [req.userId, req.workspaceId, recipient, key, attemptId ?? 'validate', now.toISOString(), windowStart],
      );
      if (claimed.rows.length === 0) throw refuse(REASONS.duplicate(recipient, this.s.idempotencyWindowHours));
    }
    const counted = async (counter: string, cap: number) =>
      (
        await trx.raw(
          `INSERT INTO outreach_policy_counters AS c (user_id, workspace_id, counter, day, count)
             SELECT ?, ?, ?, ?, 1 WHERE 1 <= ?
           ON CONFLICT (user_id, workspace_id, counter, day) DO UPDATE SET count = c.count + 1 WHERE c.count < ?
           RETURNING count`,
          [req.userId, req.workspaceId, counter, day, cap, cap],
        )
      ).rows.length > 0;
    if (!(await counted(senderCounter, senderCap))) throw refuse(REASONS.senderCap(senderCap, sender, warmupDay));
    if (!(await counted(domainCounter, this.s.domainDailyCap)))
      throw refuse(REASONS.domainCap(this.s.domainDailyCap, domain));
    await trx.raw(
      `INSERT INTO outreach_contacts (user_id, workspace_id, email, legal_basis, recorded_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT DO NOTHING`,
      [req.userId, req.workspaceId, recipient, basisKey, now.toISOString()],
    );
    if (!attemptId) throw new Outcome(result); // dry run: allowed, roll everything back
    const reserved: PolicyResult = {
      ...result,
      counts: {
        ...result.counts,
        sender_today: result.counts.sender_today + 1,
        recipient_domain_today: result.counts.recipient_domain_today + 1,
      },
    };
    await trx('outreach_policy_reservations').insert({
      attempt_id: attemptId,
      user_id: req.userId,
      workspace_id: req.workspaceId,
      status: 'reserved',
      day,
      counters: JSON.stringify([senderCounter, domainCounter]),
      result: JSON.stringify(reserved),
    });
    return reserved;
  }
}

/** Whether an address (or its domain) is on the workspace's suppression list now. */
export async function isSuppressed(db: Knex, userId: string, workspaceId: string, email: string): Promise<boolean> {
  return (await suppressionOf(db, userId, workspaceId, email)) !== undefined;
}

/** The policy's reason an address is suppressed now (its own entry first, then its @domain); undefined when not. */
export async function suppressionOf(
  db: Knex,
  userId: string,
  workspaceId: string,
  email: string,
): Promise<string | undefined> {
  const e = email.trim().toLowerCase();
  const rows = (await db('outreach_suppression_index')
    .where({ user_id: userId, workspace_id: workspaceId })
    .whereIn('entry', [e, `@${domainOf(e)}`])
    .select('entry')) as { entry: string }[];
  if (rows.some((r) => r.entry === e)) return REASONS.suppressedAddress(e);
  return rows.length ? REASONS.suppressedDomain(domainOf(e)) : undefined;
}
