/**
 * A lead as a client sends it, checked and normalised. Bulk adds check each
 * entry with this (a bad entry fails alone, with its reason); the single add
 * route validates with its JSON Schema first, then normalises the same way.
 */
import type { NewLead } from './campaign';
import { DEFAULT_LEGAL_BASIS, isLegalBasis } from './legal';
import { normalizeEmail, normalizeUrl } from './normalize';

export interface LeadInput {
  website_url?: unknown;
  website_title?: unknown;
  contact_email?: unknown;
  quality_score?: unknown;
  relevance_score?: unknown;
  guest_post_likelihood?: unknown;
  source?: unknown;
  legal_basis?: unknown;
}

export type ParsedLead = { ok: true; lead: NewLead } | { ok: false; reason: string };

const SCORES = ['quality_score', 'relevance_score', 'guest_post_likelihood'] as const;
/** The fields of a lead: any other is refused (the lead fails with its reason), never dropped. */
const LEAD_FIELDS = new Set<string>([
  'website_url',
  'website_title',
  'contact_email',
  ...SCORES,
  'source',
  'legal_basis',
] satisfies (keyof LeadInput)[]);

/** Checks one lead; `newId` makes the lead id (the caller's source of ids keeps this function pure). */
export function parseLead(raw: unknown, newId: () => string): ParsedLead {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, reason: 'a lead must be an object' };
  const unknown = Object.keys(raw).find((k) => !LEAD_FIELDS.has(k));
  if (unknown !== undefined)
    return {
      ok: false,
      reason: `${unknown.slice(0, 100)} is not a field of a lead: unknown fields are refused, not ignored`,
    };
  const l = raw as LeadInput;
  if (typeof l.website_url !== 'string' || !l.website_url.trim())
    return { ok: false, reason: 'website_url is required' };
  if (l.website_url.length > 2048) return { ok: false, reason: 'website_url is longer than 2048 characters' };
  const normalized = normalizeUrl(l.website_url);
  if (!normalized) return { ok: false, reason: 'website_url must be an absolute http(s) URL' };
  let email: string | null = null;
  if (l.contact_email !== undefined && l.contact_email !== null && l.contact_email !== '') {
    if (typeof l.contact_email !== 'string') return { ok: false, reason: 'contact_email must be a string' };
    const e = normalizeEmail(l.contact_email);
    if (!e) return { ok: false, reason: `contact_email is not an email address: ${l.contact_email.slice(0, 100)}` };
    email = e;
  }
  const scores: Record<string, number | null> = {};
  for (const k of SCORES) {
    const v = l[k];
    if (v === undefined || v === null) scores[k] = null;
    else if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1)
      return { ok: false, reason: `${k} must be a number from 0 to 1` };
    else scores[k] = v;
  }
  for (const k of ['website_title', 'source'] as const) {
    const v = l[k];
    if (v !== undefined && v !== null && typeof v !== 'string') return { ok: false, reason: `${k} must be a string` };
  }
  const title = typeof l.website_title === 'string' ? l.website_title.trim().slice(0, 500) : '';
  const source = typeof l.source === 'string' && l.source.trim() ? l.source.trim().slice(0, 100) : 'manual';
  if (l.legal_basis !== undefined && !isLegalBasis(l.legal_basis))
    return { ok: false, reason: 'legal_basis must be legitimate_interest or consent' };
  return {
    ok: true,
    lead: {
      lead_id: newId(),
      website_url: l.website_url.trim(),
      normalized_url: normalized,
      website_title: title || null,
      contact_email: email,
      quality_score: scores.quality_score,
      relevance_score: scores.relevance_score,
      guest_post_likelihood: scores.guest_post_likelihood,
      source,
      legal_basis: isLegalBasis(l.legal_basis) ? l.legal_basis : DEFAULT_LEGAL_BASIS,
    },
  };
}
