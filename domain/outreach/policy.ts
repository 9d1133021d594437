/**
 * The outreach send policy's rules and defaults (pure). The engine that
 * applies them atomically in PostgreSQL is infra/outreach/policy.ts.
 *
 * Defaults (docs/outreach.md, each a configuration key):
 * - sender mailbox: 50 sends per UTC day (OUTREACH_SENDER_DAILY_CAP);
 * - warm-up of a new sender mailbox: 10, 20, 30, 40 sends on its first four days in a workspace, then the cap
 *   (OUTREACH_WARMUP_RAMP);
 * - recipient domain: 5 sends per UTC day (OUTREACH_DOMAIN_DAILY_CAP);
 * - idempotency: the same recipient and subject again within 168 hours is refused
 *   (OUTREACH_IDEMPOTENCY_WINDOW_HOURS);
 * - suppression: an address, or its whole @domain, on the workspace's list is refused.
 */
export interface PolicySettings {
  senderDailyCap: number;
  domainDailyCap: number;
  /** Caps of a new sender mailbox's first days (day 1 = the day of its first send in the workspace). */
  warmupRamp: number[];
  idempotencyWindowHours: number;
}

export const DEFAULT_POLICY: PolicySettings = {
  senderDailyCap: 50,
  domainDailyCap: 5,
  warmupRamp: [10, 20, 30, 40],
  idempotencyWindowHours: 168,
};

/** Parses a ramp like "10,20,30" (empty = no warm-up). */
export function parseRamp(text: string): number[] {
  if (!text.trim()) return [];
  const out = text.split(',').map((s) => Number(s.trim()));
  if (out.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`not a list of positive integers: ${text}`);
  return out;
}

/** The sender cap of day `dayIndex` (0 = the sender's first day): the ramp's value while it lasts, never above the cap. */
export function senderCapOn(s: PolicySettings, dayIndex: number): { cap: number; warmupDay: number | null } {
  if (dayIndex >= 0 && dayIndex < s.warmupRamp.length)
    return { cap: Math.min(s.senderDailyCap, s.warmupRamp[dayIndex]), warmupDay: dayIndex + 1 };
  return { cap: s.senderDailyCap, warmupDay: null };
}

/** Subjects compare case- and space-insensitively. */
export const subjectKey = (subject: string): string => subject.trim().replace(/\s+/g, ' ').toLowerCase();

export const REASONS = {
  suppressedAddress: (email: string) => `recipient ${email} is on the suppression list`,
  suppressedDomain: (domain: string) => `recipient domain ${domain} is on the suppression list`,
  duplicate: (email: string, hours: number) =>
    `an email with the same subject was sent to ${email} within the last ${hours} hours`,
  senderCap: (cap: number, sender: string, warmupDay: number | null) =>
    warmupDay
      ? `warm-up cap of ${cap} sends on day ${warmupDay} reached for sender ${sender}`
      : `daily cap of ${cap} sends reached for sender ${sender}`,
  domainCap: (cap: number, domain: string) => `daily cap of ${cap} sends reached for recipient domain ${domain}`,
  unavailable: 'policy check could not be completed (policy store unavailable); nothing was sent',
};

/** The answer of a policy check (POST /policy/validate, and every send). */
export interface PolicyResult {
  allowed: boolean;
  reason: string | null;
  legal_basis: string;
  /** Sends counted today before this one (after it, for a reserved send), and same-subject sends in the window. */
  counts: { sender_today: number; recipient_domain_today: number; same_subject_in_window: number };
  limits: {
    sender_daily_cap: number;
    recipient_domain_daily_cap: number;
    /** Day of the sender's warm-up (1-based) when the ramp applies today, else null. */
    warmup_day: number | null;
    idempotency_window_hours: number;
  };
}
