/**
 * Reading what comes back (pure): which messages are automatic (RFC 3834
 * auto-replies, RFC 3464 delivery status reports) and what a human reply
 * says. The method is rules over the reply's own text (quoted text removed),
 * documented in docs/outreach.md:
 *
 * - auto-reply: `Auto-Submitted` other than `no`, `Precedence: bulk|junk|list|auto_reply`, `X-Autoreply`,
 *   `X-Autorespond`, or an out-of-office subject ("Automatic reply", "Out of office", "Auto-reply", ...).
 * - bounce: `multipart/report; report-type=delivery-status`; a per-recipient `Status: 5.x.x` is permanent.
 * - human reply: each class has phrases with weights; the highest total wins (ties: unsubscribe,
 *   not_interested, referral, interested, question). No phrase: `question` when the text asks something,
 *   else `interested` with confidence 0.3 (a reply that does not decline is engagement).
 *   confidence = 0.5 + 0.5 × (best − second best) / best, at most 0.95.
 */
import type { ReplyClass } from '../events/outreach';

export type Headers = Record<string, string | undefined>;

const OOO_SUBJECT =
  /^(automatic reply|auto(matic)?[- ]?(reply|response|antwort)|out of (the )?office|abwesenheit|away from (the )?office|on vacation|vacation reply|autoreply)\b|\b(out of (the )?office|ooo)\b/i;

export function isAutoReply(h: Headers, subject: string): { auto: boolean; signal?: string } {
  const as = h['auto-submitted']?.trim().toLowerCase();
  if (as && as !== 'no') return { auto: true, signal: `Auto-Submitted: ${as}` };
  const p = h['precedence']?.trim().toLowerCase();
  if (p && ['bulk', 'junk', 'list', 'auto_reply'].includes(p)) return { auto: true, signal: `Precedence: ${p}` };
  if (h['x-autoreply'] !== undefined) return { auto: true, signal: 'X-Autoreply' };
  if (h['x-autorespond'] !== undefined) return { auto: true, signal: 'X-Autorespond' };
  if (OOO_SUBJECT.test(subject.trim())) return { auto: true, signal: 'out-of-office subject' };
  return { auto: false };
}

export interface DsnRecipient {
  recipient: string;
  action: string;
  status: string;
  permanent: boolean;
  diagnostic?: string;
}

/** The per-recipient fields of a message/delivery-status body (RFC 3464). */
export function parseDeliveryStatus(text: string): DsnRecipient[] {
  const unfolded = text.replace(/\r?\n[ \t]+/g, ' ');
  const groups = unfolded.split(/\r?\n\s*\r?\n/);
  const out: DsnRecipient[] = [];
  for (const g of groups) {
    const f: Record<string, string> = {};
    for (const line of g.split(/\r?\n/)) {
      const m = /^([A-Za-z-]+):\s*(.*)$/.exec(line.trim());
      if (m) f[m[1].toLowerCase()] = m[2].trim();
    }
    const rcpt = f['final-recipient'] ?? f['original-recipient'];
    if (!rcpt || !f.status) continue;
    const status = /(\d\.\d{1,3}\.\d{1,3})/.exec(f.status)?.[1] ?? f.status;
    out.push({
      recipient: rcpt.replace(/^[a-z0-9-]+;\s*/i, '').toLowerCase(),
      action: (f.action ?? '').toLowerCase(),
      status,
      permanent: status.startsWith('5.') || (f.action ?? '').toLowerCase() === 'failed',
      diagnostic: f['diagnostic-code'],
    });
  }
  return out;
}

/** Message-IDs (`<...>`) in a header value (In-Reply-To, References) or header block. */
export const messageIdsIn = (text: string | undefined): string[] => [
  ...new Set((text ?? '').match(/<[^<>\s]+@[^<>\s]+>/g) ?? []),
];

/** The reply's own text: quoted lines and everything from the quote header on are dropped. */
export function ownText(body: string): string {
  const lines = body.replace(/\r\n/g, '\n').split('\n');
  const out: string[] = [];
  for (const l of lines) {
    if (/^\s*On .{3,200}wrote:\s*$/.test(l) || /^-{2,}\s*Original Message\s*-{2,}/i.test(l) || /^From:\s.+@/.test(l))
      break;
    if (/^\s*>/.test(l)) continue;
    out.push(l);
  }
  return out.join('\n').trim();
}

type Rule = [RegExp, number];
const RULES: Record<Exclude<ReplyClass, 'auto_reply' | 'bounce'>, Rule[]> = {
  unsubscribe: [
    [/\bunsubscribe\b/i, 3],
    [/\bremove (me|us|my (email|address))\b/i, 3],
    [/\b(stop|don'?t|do not) (emailing|email|contact|contacting|message|messaging|write|writing to) (me|us)\b/i, 3],
    [/\bopt(ed)?[- ]?out\b/i, 3],
    [/\btake me off\b/i, 3],
    [/\bno (more|further) (emails?|messages)\b/i, 2],
  ],
  not_interested: [
    [/\bnot interested\b/i, 3],
    [/\bno,? thanks?\b|\bno thank you\b/i, 2],
    [/\b(we|i) (do not|don'?t) (accept|take|publish|do) (guest|sponsored)/i, 3],
    [/\bnot (a good fit|the right fit|a fit|for us|at this time|right now)\b/i, 2],
    [/\b(pass|decline)\b/i, 1],
    [/\bno longer (accept|publish)/i, 3],
  ],
  referral: [
    [
      /\b(contact|reach out to|email|write to|talk to|speak to|try) (my colleague|our|the) (editor|editorial|content|marketing)/i,
      3,
    ],
    [/\b(i'?m|i am) not the (right|best) person\b/i, 3],
    [/\b(forward(ed|ing)?|cc'?(ed|ing)?|loop(ed|ing) in)\b/i, 2],
    [/\bplease (contact|email|reach)\b[^.?!\n]{0,60}@/i, 3],
    [/\bhandles? (our|the) (blog|content|guest posts)\b/i, 2],
  ],
  interested: [
    [/\b(yes|sure|absolutely|definitely)\b/i, 1],
    [/\b(i'?m|we'?re|i am|we are) (interested|open to|happy to|keen)\b/i, 3],
    [/\bsounds (good|great|interesting)\b/i, 2],
    [/\b(send|share) (it|me|us|over|the|your) ?(outline|draft|ideas|topics|pitch|article)?\b/i, 2],
    [/\b(would|we'?d|i'?d) (love|like) to\b/i, 2],
    [/\blet'?s do it\b|\bgo ahead\b|\blooking forward\b/i, 2],
  ],
  question: [
    [/\?/, 1],
    [/\b(how much|what (are|is|would)|could you|can you|do you|which|when would)\b/i, 1],
    [/\b(rates?|price|pricing|fee|cost|sponsored|payment)\b/i, 1],
  ],
};
const ORDER: Exclude<ReplyClass, 'auto_reply' | 'bounce'>[] = [
  'unsubscribe',
  'not_interested',
  'referral',
  'interested',
  'question',
];

export interface Classified {
  classification: ReplyClass;
  confidence: number;
  signals: string[];
}

export function classifyReply(body: string): Classified {
  const text = ownText(body);
  // "not interested" must not count as "interested".
  const scores = ORDER.map((c) => {
    let score = 0;
    const signals: string[] = [];
    for (const [re, w] of RULES[c]) {
      const m = re.exec(text);
      if (!m) continue;
      if (
        c === 'interested' &&
        /\bnot\s+(interested|open|keen)/i.test(text.slice(Math.max(0, m.index - 4), m.index + m[0].length))
      )
        continue;
      if (c === 'interested' && /\bnot interested\b/i.test(text) && /interested/i.test(m[0])) continue;
      score += w;
      signals.push(`${c}: "${m[0].trim()}"`);
    }
    return { c, score, signals };
  });
  const ranked = [...scores].sort((a, b) => b.score - a.score || ORDER.indexOf(a.c) - ORDER.indexOf(b.c));
  const [best, second] = ranked;
  // A question mark alone does not outweigh a stated intent.
  if (best.score === 0)
    return /\?/.test(text)
      ? { classification: 'question', confidence: 0.4, signals: ['question: "?"'] }
      : { classification: 'interested', confidence: 0.3, signals: ['no decline or request found'] };
  const confidence = Math.min(0.95, 0.5 + (0.5 * (best.score - second.score)) / best.score);
  return { classification: best.c, confidence: Math.round(confidence * 100) / 100, signals: best.signals };
}
