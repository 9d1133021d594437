/**
 * The engagement model measures meaning (engagement-v2): relevance to the
 * topic and a repetition penalty, and an off-topic or repetitive text cannot
 * score above 50 whatever its hook, questions and hashtags.
 *
 * Before: the off-topic post scored 70.5 and the repeated one 68.6 (v1).
 */
import { analyzeEngagement } from '../../../domain/writers/engagement';
import { ENGAGEMENT_CAP, ENGAGEMENT_MODEL_VERSION, FACTOR_WEIGHTS } from '../../../domain/writers/engagement-model';
import { GOOD_POST, OFF_TOPIC_POST, READING_TOPIC, REPEATED_POST } from '../analysis/fixtures/coherence-texts';

const factor = (r: ReturnType<typeof analyzeEngagement>, name: string) => r.factors.find((f) => f.factor === name)!;
const sum = (r: ReturnType<typeof analyzeEngagement>) => 50 + r.factors.reduce((a, f) => a + f.contribution, 0);

describe('relevance and repetition', () => {
  it('are factors of engagement-v2, with weights that still sum to 100', () => {
    expect(ENGAGEMENT_MODEL_VERSION).toBe('engagement-v2');
    expect(FACTOR_WEIGHTS.relevance).toBe(15);
    expect(FACTOR_WEIGHTS.repetition).toBe(5);
    expect(Object.values(FACTOR_WEIGHTS).reduce((a, b) => a + b, 0)).toBe(100);
    expect(ENGAGEMENT_CAP).toBe(50);
  });

  it.each([[undefined], [READING_TOPIC]])(
    'the post announcing a reading that mostly gives podcast advice scores 50 or less (topic %s)',
    (topic) => {
      const r = analyzeEngagement({ content: OFF_TOPIC_POST, platform: 'socialnet', topic });
      expect(r.engagement_prediction.overall_score).toBeLessThanOrEqual(50);
      const rel = factor(r, 'relevance');
      expect(rel.measured).toBeLessThan(0.6);
      expect(rel.score).toBe(0);
      expect(rel.explanation).toMatch(/includes −[\d.]+ points of the cap at 50/);
      // The cap is booked on relevance: the contributions still add up to the score.
      expect(Math.abs(sum(r) - r.engagement_prediction.overall_score)).toBeLessThan(0.1);
      expect(r.optimization_suggestions[0]).toMatch(/^Capped at 50: only \d+% of the sentences are about/);
      expect(r.optimization_suggestions[0]).toMatch(/podcast/);
    },
  );

  it('the on-topic announcement scores higher, above 50, uncapped', () => {
    for (const topic of [undefined, READING_TOPIC]) {
      const good = analyzeEngagement({ content: GOOD_POST, platform: 'socialnet', topic });
      const off = analyzeEngagement({ content: OFF_TOPIC_POST, platform: 'socialnet', topic });
      expect(good.engagement_prediction.overall_score).toBeGreaterThan(65);
      expect(good.engagement_prediction.overall_score).toBeGreaterThan(off.engagement_prediction.overall_score + 15);
      expect(factor(good, 'relevance')).toMatchObject({ measured: 1, score: 1, contribution: 7.5 });
      expect(factor(good, 'relevance').explanation).not.toMatch(/points of the cap/);
      expect(good.optimization_suggestions.some((s) => /^Capped/.test(s))).toBe(false);
    }
  });

  it('the same sentence three times is capped, booked on repetition', () => {
    const r = analyzeEngagement({ content: REPEATED_POST, platform: 'socialnet' });
    expect(r.engagement_prediction.overall_score).toBeLessThanOrEqual(50);
    expect(factor(r, 'repetition').score).toBe(0);
    expect(factor(r, 'repetition').explanation).toMatch(/points of the cap at 50/);
    expect(factor(r, 'relevance').score).toBe(1);
    expect(Math.abs(sum(r) - r.engagement_prediction.overall_score)).toBeLessThan(0.1);
    expect(r.optimization_suggestions[0]).toMatch(/^Capped at 50: 2 sentence\(s\) repeat an earlier one/);
  });

  it('strong historical performance cannot lift an off-topic text above the cap', () => {
    const r = analyzeEngagement({ content: OFF_TOPIC_POST, platform: 'socialnet', historicalRate: 10 });
    expect(r.engagement_prediction.overall_score).toBeLessThanOrEqual(50);
    expect(Math.abs(sum(r) - r.engagement_prediction.overall_score)).toBeLessThan(0.1);
  });

  it('a post that never mentions the brief topic is off topic', () => {
    const r = analyzeEngagement({ content: GOOD_POST, platform: 'socialnet', topic: 'quarterly tax returns' });
    expect(factor(r, 'relevance').measured).toBe(0);
    expect(r.engagement_prediction.overall_score).toBeLessThanOrEqual(50);
  });

  it('a Markdown article is read by its headings', () => {
    const article = `# Author events at Riverside Books\n\n## Choosing authors\n\nThe shop invites local novelists. They read for twenty minutes and then sign books.\n\n## On the night\n\nChairs go out at five. Wine and water are free.`;
    const r = analyzeEngagement({ content: article, platform: 'profnet', kind: 'article' });
    expect(factor(r, 'relevance').measured).toBe(1);
  });
});
