/**
 * Nothing a client (or a vendor) can send breaks a writer: any body that
 * passes a route's schema either becomes a brief or is refused with a
 * ValidationError (400), and the offline writer and the finishing rules never
 * throw on it; any draft of the vendor shape is finished within the limits.
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { BODIES, engagementBody, writerRequest } from '../../../api/writers/schemas';
import { analysisTarget } from '../../../api/writers/engagement';
import { analyzeEngagement } from '../../../domain/writers/engagement';
import { ValidationError } from '../../../domain/errors';
import { writeSocial } from '../../../domain/generation/social';
import { AD_FORMAT_LIMITS, AdFormat } from '../../../domain/writers/ad-formats';
import { buildJob } from '../../../domain/writers/briefs';
import type { WriterRequestBody } from '../../../domain/writers/requests';
import { DRAFT_SCHEMAS } from '../../../domain/writers/drafts';
import { finishDraft } from '../../../domain/writers/finish';
import { emptyPreferences } from '../../../domain/writers/preferences';
import { charCount } from '../../../domain/writers/text-limits';
import { WRITER_KINDS, WriterKind, WriterPlatform } from '../../../domain/writers/types';
import type { Source } from '../../../domain/analysis/types';
import { createCorpusProvider, DEFAULT_CORPUS_DIR } from '../../../infra/research';
import { arbitraryOf } from '../../support/schema-arbitrary';

const ajv = new Ajv({ strict: false, useDefaults: true });
addFormats(ajv);
const corpus = createCorpusProvider({ dir: DEFAULT_CORPUS_DIR, publicBaseUrl: 'http://127.0.0.1:8000' });
let sources: Source[] = [];
beforeAll(async () => {
  sources = (await corpus.search('social media content planning', { limit: 5 })).map((s, i) => ({
    ...s,
    index: i + 1,
  }));
});

const cases = (Object.keys(WRITER_KINDS) as WriterPlatform[]).flatMap((p) =>
  WRITER_KINDS[p].map((k) => [p, k] as const),
);

/** The limits every finished piece must hold, whoever wrote the draft. */
function expectWithinLimits(
  kind: WriterKind,
  brief: ReturnType<typeof buildJob>['brief'],
  piece: ReturnType<typeof finishDraft>,
) {
  const c = piece.content as {
    variants: Array<{ primary_text: string; headline: string; description?: string }>;
    scenes: Array<{ duration_seconds: number }>;
    frames: Array<{ duration_seconds: number }>;
  };
  if (kind === 'post' || kind === 'group_post' || kind === 'page_about')
    expect(charCount(piece.text)).toBeLessThanOrEqual(brief.maxCharacters);
  if (kind === 'ad_copy') {
    const l = AD_FORMAT_LIMITS[(brief as { adFormat: AdFormat }).adFormat];
    for (const v of c.variants) {
      expect(charCount(v.primary_text)).toBeLessThanOrEqual(l.primary_text);
      expect(charCount(v.headline)).toBeLessThanOrEqual(l.headline);
      expect(charCount(v.description ?? '')).toBeLessThanOrEqual(l.description);
    }
  }
  if (kind === 'video_post' || kind === 'reel')
    expect(c.scenes.reduce((a, s) => a + s.duration_seconds, 0)).toBe(
      (brief as { durationSeconds: number }).durationSeconds,
    );
  if (kind === 'story')
    expect(c.frames.reduce((a, s) => a + s.duration_seconds, 0)).toBe(
      (brief as { durationSeconds: number }).durationSeconds,
    );
}

describe.each(cases)('%s %s', (platform, kind) => {
  const validate = ajv.compile(BODIES[platform][kind]!);

  it('any valid body: a brief or a 400, never a crash; the local piece holds the limits', () => {
    fc.assert(
      fc.property(arbitraryOf(BODIES[platform][kind]!), (raw) => {
        const body = JSON.parse(JSON.stringify(raw)) as WriterRequestBody;
        fc.pre(validate(body));
        let job;
        try {
          job = buildJob(writerRequest(platform, kind, body), emptyPreferences());
        } catch (e) {
          expect(e).toBeInstanceOf(ValidationError);
          return;
        }
        const draft = writeSocial({ brief: job.brief, sources: job.brief.research ? sources : [] });
        expect(ajv.validate(DRAFT_SCHEMAS[kind], draft)).toBe(true);
        expectWithinLimits(kind, job.brief, finishDraft(job.brief, draft, sources));
      }),
      { numRuns: 60 },
    );
  });

  it('any draft of the vendor shape is finished within the limits', () => {
    const base = buildJob(
      writerRequest(
        platform,
        kind,
        kind === 'event'
          ? { event_details: { name: 'Launch' } }
          : kind === 'page_about'
            ? { business_type: 'bakery', character_limit: 80 }
            : kind === 'ad_copy'
              ? { product_service: 'app', ad_format: 'carousel' }
              : { topic: 'planning', duration: '20_seconds', max_length: 200 },
      ),
      emptyPreferences(),
    );
    fc.assert(
      fc.property(arbitraryOf(DRAFT_SCHEMAS[kind]), (draft) => {
        fc.pre(ajv.validate(DRAFT_SCHEMAS[kind], draft));
        expectWithinLimits(kind, base.brief, finishDraft(base.brief, draft, sources));
      }),
      { numRuns: 80 },
    );
  });
});

describe('engagement analysis', () => {
  it('any valid body gives a prediction in range whose contributions add up (never a crash)', () => {
    const validate = ajv.compile(engagementBody);
    fc.assert(
      fc.property(arbitraryOf(engagementBody), (raw) => {
        const b = JSON.parse(JSON.stringify(raw)) as {
          content: string;
          platform_context?: string;
          audience_demographics?: { interests?: string[] };
          historical_performance?: {
            similar_content_avg_engagement?: number;
            platform_benchmarks?: { content_type?: string };
          };
        };
        fc.pre(validate(b));
        const t = analysisTarget(b.platform_context ?? '', b.historical_performance?.platform_benchmarks?.content_type);
        const r = analyzeEngagement({
          content: b.content,
          platform: t.platform,
          kind: t.kind,
          interests: b.audience_demographics?.interests,
          historicalRate: b.historical_performance?.similar_content_avg_engagement,
        });
        const p = r.engagement_prediction;
        expect(p.overall_score).toBeGreaterThanOrEqual(0);
        expect(p.overall_score).toBeLessThanOrEqual(100);
        for (const k of ['like_probability', 'comment_probability', 'share_probability', 'save_probability'] as const) {
          expect(p[k]).toBeGreaterThanOrEqual(0);
          expect(p[k]).toBeLessThanOrEqual(1);
        }
        expect(Math.abs(50 + r.factors.reduce((a, f) => a + f.contribution, 0) - p.overall_score)).toBeLessThan(0.1);
      }),
      { numRuns: 300 },
    );
  });
});
