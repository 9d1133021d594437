/**
 * The engagement model: deterministic, contributions add up to the score,
 * every factor moves the prediction in its documented direction (property
 * over random factor scores, and on texts that differ in one factor), and
 * historical performance is blended 70/30.
 */
import fc from 'fast-check';
import { analyzeEngagement, blend, predictions } from '../../../domain/writers/engagement';
import { FACTOR_WEIGHTS, FactorName, HISTORY_BLEND } from '../../../domain/writers/engagement-model';

const FACTORS = Object.keys(FACTOR_WEIGHTS) as FactorName[];
const scoresArb = fc.record(
  Object.fromEntries(FACTORS.map((f) => [f, fc.double({ min: 0, max: 1, noNaN: true })])) as Record<
    FactorName,
    fc.Arbitrary<number>
  >,
);

const BASE = `Most teams plan content one week at a time.

A shared calendar keeps posting consistent and connects social posts to launches and events. It also makes gaps visible before they become a problem.

#ContentCalendar #Planning`;

describe('engagement model', () => {
  it('weights sum to 100 and a neutral text of all 0.5 scores 50', () => {
    expect(Object.values(FACTOR_WEIGHTS).reduce((a, b) => a + b, 0)).toBe(100);
    const half = Object.fromEntries(FACTORS.map((f) => [f, 0.5])) as Record<FactorName, number>;
    expect(blend(half).overall).toBe(50);
  });

  it('raising any one factor raises the score and never lowers a probability (property)', () => {
    fc.assert(
      fc.property(scoresArb, fc.constantFrom(...FACTORS), fc.double({ min: 0.01, max: 1, noNaN: true }), (s, f, d) => {
        const up = { ...s, [f]: Math.min(1, s[f] + d) };
        fc.pre(up[f] - s[f] > 1e-9);
        const a = blend(s).overall;
        const b = blend(up).overall;
        expect(b).toBeGreaterThan(a);
        const pa = predictions(a, s, 100);
        const pb = predictions(b, up, 100);
        for (const k of ['like_probability', 'comment_probability', 'share_probability', 'save_probability'] as const)
          expect(pb[k]).toBeGreaterThanOrEqual(pa[k]);
      }),
      { numRuns: 500 },
    );
  });

  it('reports contributions that add up to the score (50 + sum), and is deterministic', () => {
    const r = analyzeEngagement({ content: BASE, platform: 'socialnet', historicalRate: 2.5 });
    const sum = r.factors.reduce((a, f) => a + f.contribution, 0);
    expect(Math.abs(50 + sum - r.engagement_prediction.overall_score)).toBeLessThan(0.1);
    expect(r.factors.map((f) => f.factor)).toEqual([...FACTORS, 'historical_performance']);
    expect(analyzeEngagement({ content: BASE, platform: 'socialnet', historicalRate: 2.5 })).toEqual(r);
  });

  it('a question invites comments: the score and comment_probability go up', () => {
    const plain = analyzeEngagement({ content: BASE, platform: 'profnet' });
    const asked = analyzeEngagement({
      content: BASE.replace('before they become a problem.', 'before they become a problem. Which gap do you see?'),
      platform: 'profnet',
    });
    expect(asked.factors.find((f) => f.factor === 'questions')!.contribution).toBeGreaterThan(
      plain.factors.find((f) => f.factor === 'questions')!.contribution,
    );
    expect(asked.engagement_prediction.overall_score).toBeGreaterThan(plain.engagement_prediction.overall_score);
    expect(asked.engagement_prediction.comment_probability).toBeGreaterThan(
      plain.engagement_prediction.comment_probability,
    );
  });

  it('an explicit call to action raises cta_strength and the score', () => {
    const plain = analyzeEngagement({ content: BASE, platform: 'socialnet' });
    const cta = analyzeEngagement({
      content: BASE.replace('#ContentCalendar', 'Share your calendar tips in the comments below.\n\n#ContentCalendar'),
      platform: 'socialnet',
    });
    expect(cta.content_improvements.call_to_action_strength).toBeGreaterThan(
      plain.content_improvements.call_to_action_strength,
    );
    expect(cta.engagement_prediction.overall_score).toBeGreaterThan(plain.engagement_prediction.overall_score);
    expect(plain.optimization_suggestions.some((s) => /call to action/i.test(s))).toBe(true);
  });

  it('hashtags beyond the platform band lower the score', () => {
    const ok = analyzeEngagement({ content: BASE, platform: 'socialnet' });
    const many = analyzeEngagement({ content: `${BASE} #A #B #C #D #E #F #G`, platform: 'socialnet' });
    expect(many.factors.find((f) => f.factor === 'hashtags')!.contribution).toBeLessThan(
      ok.factors.find((f) => f.factor === 'hashtags')!.contribution,
    );
    expect(many.engagement_prediction.overall_score).toBeLessThan(ok.engagement_prediction.overall_score);
    expect(many.optimization_suggestions.some((s) => /Remove \d+ hashtag/.test(s))).toBe(true);
  });

  it('better historical performance raises the prediction, with a 30 % blend', () => {
    const low = analyzeEngagement({ content: BASE, platform: 'socialnet', historicalRate: 0.2 });
    const high = analyzeEngagement({ content: BASE, platform: 'socialnet', historicalRate: 3 });
    expect(high.engagement_prediction.overall_score).toBeGreaterThan(low.engagement_prediction.overall_score);
    const none = analyzeEngagement({ content: BASE, platform: 'socialnet' });
    const neutral = analyzeEngagement({ content: BASE, platform: 'socialnet', historicalRate: 1 });
    // A historical rate at the reference (1 % on socialnet) is neutral: the text's own score, scaled by 0.7, around 50.
    expect(neutral.engagement_prediction.overall_score).toBeCloseTo(
      50 + (1 - HISTORY_BLEND) * (none.engagement_prediction.overall_score - 50),
      0,
    );
  });

  it("mentioning the audience's interests raises posting_context", () => {
    const off = analyzeEngagement({ content: BASE, platform: 'socialnet', interests: ['gardening', 'cooking'] });
    const on = analyzeEngagement({ content: BASE, platform: 'socialnet', interests: ['planning', 'events'] });
    expect(on.engagement_prediction.overall_score).toBeGreaterThan(off.engagement_prediction.overall_score);
  });

  it('scores length against the platform band: a microblog text of 2,000 characters is penalised', () => {
    const long = 'Planning content ahead keeps a team calm. '.repeat(48);
    const micro = analyzeEngagement({ content: long, platform: 'microblog' });
    const prof = analyzeEngagement({ content: long, platform: 'profnet' });
    expect(micro.factors.find((f) => f.factor === 'length')!.score).toBe(0);
    expect(prof.factors.find((f) => f.factor === 'length')!.score).toBeGreaterThan(0.5);
  });
});

describe('words that name Object.prototype members', () => {
  it('score like any other word (the syllable table looks up own keys only)', () => {
    const r = analyzeEngagement({ content: 'constructor toString valueOf hasOwnProperty', platform: 'socialnet' });
    expect(Number.isFinite(r.engagement_prediction.overall_score)).toBe(true);
    expect(r.factors.every((f) => Number.isFinite(f.contribution))).toBe(true);
  });
});
