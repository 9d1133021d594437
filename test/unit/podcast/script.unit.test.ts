import {
  localScript,
  normaliseSpeakers,
  sceneCountFor,
  sceneWordBudgets,
  scriptFromDraft,
  scriptInput,
} from '../../../domain/podcast/script';
import {
  analyzeIdeaOffline,
  enhanceIdeaOffline,
  ideaKeywords,
  searchQueriesOffline,
} from '../../../domain/podcast/analysis';

const speakers = [{ name: 'Alice', role: 'host' }, { name: 'Bob' }];

describe('podcast scripts (pure)', () => {
  it('sizes the episode at 150 words a minute, about a scene a minute, at least two', () => {
    expect(scriptInput({ idea: 'x', duration_minutes: 10, speakers }).target_words).toBe(1500);
    expect(sceneCountFor(1)).toBe(2);
    expect(sceneCountFor(10)).toBe(10);
    expect(sceneCountFor(500)).toBe(40);
    expect(sceneWordBudgets(151, 2)).toEqual([76, 75]);
    expect(sceneWordBudgets(1500, 7).reduce((a, b) => a + b, 0)).toBe(1500);
  });

  it('gives speakers ids and distinct offline voices unless one is given', () => {
    const s = normaliseSpeakers([
      { name: 'Dr. Ann Lee' },
      { name: 'Dr. Ann Lee' },
      { name: 'Zed', voice: { voice: 'en-gb-m1' } },
    ]);
    expect(s.map((x) => x.id)).toEqual(['dr_ann_lee', 'speaker_2', 'zed']);
    expect(s.map((x) => x.voice.voice)).toEqual(['en-us-m1', 'en-us-f1', 'en-gb-m1']);
  });

  it('the offline writer lands within 20 % of the word budget, alternating speakers, host opening and closing', () => {
    for (const minutes of [1, 3, 10]) {
      const input = scriptInput({ idea: 'Remote work for small teams', duration_minutes: minutes, speakers });
      const script = scriptFromDraft(localScript(input), input, { provider: 'local', model: 'local' });
      expect(Math.abs(script.word_count - input.target_words) / input.target_words).toBeLessThan(0.2);
      expect(script.scenes).toHaveLength(sceneCountFor(minutes));
      const lines = script.scenes.flatMap((s) => s.lines);
      expect(lines[0].speaker).toBe('alice');
      expect(lines[0].text).toMatch(/I'm Alice, and with me is Bob/);
      expect(lines[lines.length - 1].speaker).toBe('alice');
      expect(new Set(lines.map((l) => l.speaker))).toEqual(new Set(['alice', 'bob']));
      expect(script.estimated_seconds).toBeCloseTo((script.word_count / 150) * 60, 0);
    }
  });

  it("a vendor's draft: unknown speakers go to the first, names map to ids, empty lines and scenes are dropped", () => {
    const input = scriptInput({ idea: 'x', duration_minutes: 1, speakers });
    const s = scriptFromDraft(
      {
        title: 'T',
        scenes: [
          {
            title: 'A',
            lines: [
              { speaker: 'Bob', text: 'Hi **there**.' },
              { speaker: 'nobody', text: 'Yes.' },
              { speaker: 'bob', text: ' ' },
            ],
          },
          { lines: [{ speaker: 'alice', text: '...' }] },
        ],
      },
      input,
      { provider: 'vendor_a', model: 'm' },
    );
    expect(s.scenes).toHaveLength(1);
    expect(s.scenes[0].lines).toEqual([
      { speaker: 'bob', text: 'Hi there.' },
      { speaker: 'alice', text: 'Yes.' },
    ]);
    expect(s.offline).toBe(false);
    expect(() => scriptFromDraft({ scenes: [] }, input, { provider: 'local', model: 'l' })).toThrow(/no scene/);
  });

  it('offline analysis works from the idea only', () => {
    expect(ideaKeywords('How to start a podcast about the history of jazz')).toEqual([
      'start',
      'podcast',
      'history',
      'jazz',
    ]);
    expect(enhanceIdeaOffline({ idea: 'jazz history' }).enhanced_idea).toMatch(
      /^Jazz history: a conversational episode/,
    );
    const a = analyzeIdeaOffline({ idea: 'jazz history', duration_minutes: 4 });
    expect(a.segment_outline).toHaveLength(4);
    expect(a.segment_outline.reduce((n, s) => n + s.minutes, 0)).toBeCloseTo(4, 5);
    const q = searchQueriesOffline({ idea: 'jazz history', count: 3, previous: ['jazz history statistics'] });
    expect(q.queries).toEqual(['jazz history best practices', 'jazz history common mistakes', 'jazz history examples']);
  });
});
