import { analyzeFlowAdvanced, analyzeFlowBasic, resolveSections } from '../../../domain/analysis/flow';
import { AnalysisInputError } from '../../../domain/analysis/errors';

const sections = [
  {
    id: 's1',
    heading: 'Why sourdough bread rises',
    content:
      'Sourdough bread rises because wild yeast eats flour. The yeast makes gas that lifts the dough. Have you watched a starter bubble? It doubles in 6 hours.',
  },
  {
    id: 's2',
    heading: 'Feeding the sourdough starter',
    content:
      'Because the yeast eats flour, you feed the starter flour and water every day. A fed starter rises and bubbles. Skip a feeding and the dough rises slowly.',
  },
  {
    id: 's3',
    heading: 'Tax rules for freelancers',
    content:
      'Freelancers file quarterly estimated tax payments. Invoices must list a tax identification number. Penalties apply to late filings.',
  },
];

describe('flow analysis', () => {
  const basic = analyzeFlowBasic({ content: '', sections });

  it('returns the basic shape with scores 0-100', () => {
    expect(basic.analysis_type).toBe('basic');
    expect(Object.keys(basic.section_flow_scores)).toEqual(['s1', 's2', 's3']);
    for (const v of [basic.overall_flow_score, ...Object.values(basic.section_flow_scores)]) {
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThanOrEqual(100);
    }
    for (const d of Object.values(basic.flow_analysis))
      expect(Object.keys(d)).toEqual(['score', 'issues', 'suggestions']);
  });

  it('flags the off-topic section and the abrupt transition into it, by id and heading', () => {
    expect(basic.section_flow_scores.s3).toBeLessThan(basic.section_flow_scores.s1);
    expect(basic.flow_analysis.transitions.issues.join(' ')).toContain('"Tax rules for freelancers" (s3)');
    expect(basic.flow_analysis.coherence.issues.join(' ')).toContain('(s3)');
    expect(basic.flow_analysis.coherence.issues.join(' ')).not.toContain('(s1)');
    expect(basic.recommendations.length).toBeGreaterThan(0);
  });

  it('advanced analysis gives per-section detail and cross-section scores', () => {
    const adv = analyzeFlowAdvanced({
      sections: sections.map((s) => ({ ...s, target_words: 100 })),
      detailed_analysis: true,
    });
    expect(adv.analysis_type).toBe('advanced');
    const d = adv.detailed_section_analysis.s1;
    expect(Object.keys(d)).toEqual([
      'flow_score',
      'readability_score',
      'engagement_score',
      'coherence_score',
      'transition_score',
      'issues',
      'strengths',
      'suggestions',
    ]);
    expect(adv.detailed_section_analysis.s3.coherence_score).toBeLessThan(d.coherence_score);
    expect(adv.detailed_section_analysis.s1.issues.join(' ')).toMatch(/target of 100/); // ~28 words vs 100
    expect(Object.keys(adv.cross_section_analysis)).toEqual([
      'overall_coherence',
      'transition_quality',
      'thematic_consistency',
      'progression_logic',
    ]);
  });

  it('splits plain content into sections at headings when none are given', () => {
    const s = resolveSections({ content: 'Intro text.\n\n## One\n\nFirst.\n\n## Two\n\nSecond.' });
    expect(s.map((x) => [x.id, x.heading])).toEqual([
      ['intro', 'Introduction'],
      ['section-1', 'One'],
      ['section-2', 'Two'],
    ]);
  });

  it('rejects duplicate section ids', () => {
    expect(() =>
      analyzeFlowBasic({
        sections: [
          { id: 'a', heading: '', content: '' },
          { id: 'a', heading: '', content: '' },
        ],
      }),
    ).toThrow(AnalysisInputError);
  });
});
