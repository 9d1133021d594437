/**
 * The claim check's shapes: the sources it checks against, its options and
 * its result, the body of POST /api/blog/hallucination/check (claims.ts).
 */
import { ClaimType } from './claim-extract';

export interface ClaimSource {
  title: string;
  url: string;
  excerpt: string;
}

export interface CheckOptions {
  verify_statistics?: boolean;
  check_claims?: boolean;
  validate_sources?: boolean;
  confidence_threshold?: number;
}

export type VerificationStatus = 'verified' | 'unverified' | 'contradicted';

export interface ClaimResult {
  claim: string;
  confidence: number;
  verification_status: VerificationStatus;
  supporting_sources: Array<{ title: string; url: string; relevance_score: number }>;
  recommendation?: string;
  /** Extras: where the claim is, what kind it is, and the passage that decided it. */
  start: number;
  end: number;
  claim_types: ClaimType[];
  evidence?: { title: string; url: string; passage: string };
}

export interface HallucinationCheckResult {
  overall_confidence: number;
  hallucination_analysis: {
    total_claims: number;
    verified_claims: number;
    unverified_claims: number;
    potential_hallucinations: number;
  };
  claim_analysis: ClaimResult[];
  recommendations: string[];
}
