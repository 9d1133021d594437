/**
 * Legal basis recorded per contact (GDPR Art. 6). Cold outreach to a business
 * contact relies on legitimate interest (Art. 6(1)(f)) unless the contact
 * consented (Art. 6(1)(a)); every send records the basis of its contact.
 */
export const LEGAL_BASES = {
  legitimate_interest: 'GDPR Art. 6(1)(f) legitimate interest',
  consent: 'GDPR Art. 6(1)(a) consent',
} as const;
export type LegalBasis = keyof typeof LEGAL_BASES;
export const DEFAULT_LEGAL_BASIS: LegalBasis = 'legitimate_interest';
export const isLegalBasis = (v: unknown): v is LegalBasis =>
  typeof v === 'string' && Object.prototype.hasOwnProperty.call(LEGAL_BASES, v);
