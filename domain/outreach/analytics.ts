/**
 * Outreach reporting figures (pure), from counts the read models give
 * (docs/outreach.md defines each):
 * - reply_rate = leads with a human reply ÷ leads emailed (distinct leads with a sent attempt);
 * - bounce_rate = bounce reports ÷ emails sent;
 * - refusal_rate = sends refused by the policy ÷ send attempts;
 * - placement_rate = leads placed ÷ leads that got past `discovered`;
 * - contact_rate = leads that got past `discovered` ÷ all leads.
 * A rate with nothing to divide by is 0. Rates are rounded to 4 decimals.
 */
import { LEAD_STATES, REPLY_CLASSES } from '../events/outreach';

export interface ActivityFigures {
  leadsByStatus: Record<string, number>;
  attempts: Record<string, number>;
  replies: Record<string, number>;
  repliedLeads: number;
  emailedLeads: number;
}

const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 10000) / 10000 : 0);

/** Every status and class present, with 0 where nothing was counted. */
export const leadsByStatus = (counts: Record<string, number>) =>
  Object.fromEntries(LEAD_STATES.map((s) => [s, counts[s] ?? 0])) as Record<string, number>;
export const repliesByClassification = (counts: Record<string, number>) =>
  Object.fromEntries(REPLY_CLASSES.map((c) => [c, counts[c] ?? 0])) as Record<string, number>;

export function rates(f: ActivityFigures) {
  const leads = Object.values(f.leadsByStatus).reduce((a, b) => a + b, 0);
  const engaged = leads - (f.leadsByStatus.discovered ?? 0);
  const sent = f.attempts.sent ?? 0;
  const attempts = Object.values(f.attempts).reduce((a, b) => a + b, 0);
  return {
    contact_rate: ratio(engaged, leads),
    reply_rate: ratio(f.repliedLeads, f.emailedLeads),
    bounce_rate: ratio(f.replies.bounce ?? 0, sent),
    refusal_rate: ratio(f.attempts.refused ?? 0, attempts),
    placement_rate: ratio(f.leadsByStatus.placed ?? 0, engaged),
  };
}

/** `days` UTC dates ending today, oldest first, each with its count (0 when none). */
export function dailySeries(
  counts: Record<string, number>,
  days: number,
  today: Date,
): { date: string; sent: number }[] {
  const out: { date: string; sent: number }[] = [];
  const end = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  for (let i = days - 1; i >= 0; i--) {
    const date = new Date(end - i * 86_400_000).toISOString().slice(0, 10);
    out.push({ date, sent: counts[date] ?? 0 });
  }
  return out;
}
