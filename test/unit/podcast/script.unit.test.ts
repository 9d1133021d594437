import {
  normaliseSpeakers,
  retakeLines,
  sceneCountFor,
  sceneWordBudgets,
  scriptFromDraft,
  scriptInput,
} from '../../../domain/podcast/script';
import { localScript } from '../../../domain/podcast/local-script';
import { scriptContext } from '../../../domain/podcast/script-context';
import {
  analyzeIdeaOffline,
  enhanceIdeaOffline,
  ideaKeywords,
  searchQueriesOffline,
} from '../../../domain/podcast/analysis';
import { contentKeys } from '../../../domain/analysis/word-forms';
import { PODCAST_SCRIPT } from '../../../domain/podcast/tasks';

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

  it('the offline writer adds nothing to reach the budget: an idea alone is an opening and a closing', () => {
    for (const minutes of [1, 3, 10]) {
      const input = scriptInput({ idea: 'Remote work for small teams', duration_minutes: minutes, speakers });
      const script = scriptFromDraft(localScript(input), input, { provider: 'local', model: 'local' });
      const lines = script.scenes.flatMap((s) => s.lines);
      // The host opens (naming the guest and the idea as written), the guest answers, the host closes: no filler.
      expect(lines).toEqual([
        {
          speaker: 'alice',
          text: "Welcome to the show. I'm Alice, here with Bob to talk about Remote work for small teams.",
        },
        { speaker: 'bob', text: 'Thanks for having me, Alice.' },
        { speaker: 'alice', text: 'Thanks for listening, and see you next time.' },
      ]);
      // Shorter than the duration's budget, and the script says so by its own numbers.
      expect(script.word_count).toBeLessThan(input.target_words / 2);
      expect(script.estimated_seconds).toBeCloseTo((script.word_count / 150) * 60, 0);
    }
  });

  it('every segment of the outline is said once, speakers in turn, every content line about the brief', () => {
    const outline = [
      'Riverside Books hosts an author reading every Thursday evening',
      "Children's story time runs on Saturday mornings",
      'Seats are free but limited, so booking ahead matters',
    ];
    const input = scriptInput({
      idea: 'author events at an independent bookshop',
      duration_minutes: 1,
      speakers,
      analysis: JSON.stringify({
        audience: 'local readers and families',
        segment_outline: outline.map((title) => ({ title, minutes: 0.3 })),
      }),
    });
    const script = scriptFromDraft(localScript(input), input, { provider: 'local', model: 'local' });
    // One scene per segment up to the duration's scene count (2 for a minute), beyond it a scene holds several:
    // no segment is dropped, and each scene has both voices.
    expect(script.scenes.map((s) => s.title)).toEqual([outline[0], `${outline[1]}; ${outline[2]}`]);
    for (const scene of script.scenes) expect(new Set(scene.lines.map((l) => l.speaker)).size).toBe(2);
    const lines = script.scenes.flatMap((s) => s.lines);
    const text = lines.map((l) => l.text).join('\n');
    for (const point of outline) expect(text.split(`${point}.`)).toHaveLength(2);
    expect(lines[0].text).toBe(
      "Welcome to the show. I'm Alice, here with Bob to talk about author events at an independent bookshop, for local readers and families.",
    );
    // After the greetings, every line shares a content word with the idea or the outline.
    const briefKeys = new Set(contentKeys([input.idea, ...outline].join(' ')));
    for (const l of lines.slice(2))
      expect([l.text, contentKeys(l.text).some((k) => briefKeys.has(k))]).toEqual([l.text, true]);
    // Names keep their capitals; no line is said twice; both speakers carry segments.
    expect(text).toMatch(/Riverside Books .* Thursday/);
    expect(new Set(lines.map((l) => l.text)).size).toBe(lines.length);
    expect(new Set(lines.filter((l) => outline.some((p) => l.text.includes(p))).map((l) => l.speaker))).toEqual(
      new Set(['alice', 'bob']),
    );
    // Within the budget and not padded to it.
    expect(script.word_count).toBeLessThanOrEqual(input.target_words);
    // Imperatives, statements and noun phrases are said as written; a gerund heading is announced.
    const other = [
      'insulate exposed pipes in the attic, garage and crawl space',
      'long, cool fermentation builds flavour',
      'Choosing a licensed plumber',
    ];
    const second = scriptInput({
      idea: 'protecting home water pipes from freezing in winter',
      duration_minutes: 1,
      speakers,
      analysis: JSON.stringify({ segment_outline: other.map((title) => ({ title })) }),
    });
    expect(
      scriptFromDraft(localScript(second), second, { provider: 'local', model: 'local' }).scenes.map((s) =>
        s.lines.map((l) => l.text),
      ),
    ).toEqual([
      [
        "Welcome to the show. I'm Alice, here with Bob to talk about protecting home water pipes from freezing in winter.",
        'Thanks for having me, Alice.',
        'Insulate exposed pipes in the attic, garage and crawl space.',
      ],
      [
        'Long, cool fermentation builds flavour.',
        'And finally: Choosing a licensed plumber. Thanks for listening, and see you next time.',
      ],
    ]);
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
    // The task says so to the gateway, which asks again with it rather than pass on a script nothing can voice.
    expect(PODCAST_SCRIPT.usable!({ scenes: [{ lines: [{ speaker: 'bob', text: '...' }] }] }, input)).toBe(
      'the script has no scene with a spoken line',
    );
    expect(PODCAST_SCRIPT.usable!({ scenes: [{ lines: [{ speaker: 'bob', text: 'Hi.' }] }] }, input)).toBeUndefined();
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

  describe('the offline writer uses the research, analysis and show bible', () => {
    // The shapes the analysis routes record on a project (notes.research, notes.analysis), sent back as text.
    const research = JSON.stringify({
      source: 'corpus',
      results: [
        {
          query: 'night shift sleep',
          sources: [
            {
              title: 'Sleep Foundation guide',
              url: 'https://www.sleepfoundation.org/shift-work',
              excerpt: 'Night workers who keep a fixed sleep window report better sleep quality. Other text.',
            },
            {
              title: '',
              url: 'https://example.org/study',
              excerpt: 'Blackout curtains cut daytime light in bedrooms.',
            },
          ],
        },
      ],
    });
    const analysis = JSON.stringify({
      audience: 'nurses on night shifts',
      angle: 'practical',
      segment_outline: [
        { title: 'Why night workers sleep badly', minutes: 1, goal: 'causes' },
        { title: 'Building a daytime sleep routine', minutes: 1, goal: 'steps' },
        { title: 'What to try tonight', minutes: 1, goal: 'next step' },
      ],
    });
    const bible = 'Show: The Night Shift\nTone: warm and practical\nSign-off: Sleep well, whenever your night is.';
    const base = { idea: 'better sleep for night workers', duration_minutes: 3, speakers };
    const write = (r: Parameters<typeof scriptInput>[0]) => {
      const input = scriptInput(r);
      return { input, script: scriptFromDraft(localScript(input), input, { provider: 'local', model: 'local' }) };
    };

    it('reads findings with their sources, outline segments, audience, tone, show name and sign-off', () => {
      expect(scriptContext({ research, analysis, bible })).toEqual({
        findings: [
          {
            text: 'Night workers who keep a fixed sleep window report better sleep quality.',
            source: 'Sleep Foundation guide',
            url: 'https://www.sleepfoundation.org/shift-work',
          },
          {
            text: 'Blackout curtains cut daytime light in bedrooms.',
            source: 'example.org',
            url: 'https://example.org/study',
          },
        ],
        outline: [
          { title: 'Why night workers sleep badly' },
          { title: 'Building a daytime sleep routine' },
          { title: 'What to try tonight' },
        ],
        audience: 'nurses on night shifts',
        tone: 'warm and practical',
        show: 'The Night Shift',
        signOff: 'Sleep well, whenever your night is.',
        segments: [],
      });
      // Plain-text notes work too: list items, `Name: finding` lines, URLs naming their site, key: value lines.
      const plain = scriptContext({
        research:
          '- Sleep Foundation: Night workers sleep 1-4 hours less. https://sleepfoundation.org/a\n- Naps before a shift improve alertness (https://www.cdc.gov/niosh)',
        analysis: '1. Causes of poor sleep\n2. Routines\nAudience: nurses',
        bible: '{"show_name": "Night Owls", "segments": ["Myth or Fact", "Listener mail"]}',
      });
      expect(plain.findings.map((f) => [f.source, f.text])).toEqual([
        ['Sleep Foundation', 'Night workers sleep 1-4 hours less.'],
        ['cdc.gov', 'Naps before a shift improve alertness.'],
      ]);
      expect(plain).toMatchObject({
        outline: [{ title: 'Causes of poor sleep' }, { title: 'Routines' }],
        audience: 'nurses',
        show: 'Night Owls',
        segments: ['Myth or Fact', 'Listener mail'],
      });
      expect(scriptContext({})).toEqual({ findings: [], outline: [], tone: undefined, segments: [] });
    });

    it('the context changes the script: scene topics, talking points naming sources, show name, sign-off', () => {
      const plain = write(base).script;
      const { input, script } = write({ ...base, research, analysis, bible });
      const text = (s: typeof script) => s.scenes.flatMap((x) => x.lines.map((l) => l.text)).join('\n');
      expect(text(script)).not.toEqual(text(plain));
      expect(script.scenes.map((s) => s.title)).toEqual([
        'Why night workers sleep badly',
        'Building a daytime sleep routine',
        'What to try tonight',
      ]);
      expect(plain.scenes.map((s) => s.title)).not.toContain('Why night workers sleep badly');
      const lines = script.scenes.flatMap((s) => s.lines);
      expect(lines[0]).toEqual({
        speaker: 'alice',
        text: "Welcome to The Night Shift. I'm Alice, here with Bob to talk about better sleep for night workers, with nurses on night shifts in mind.",
      });
      expect(lines[lines.length - 1]).toEqual({ speaker: 'alice', text: 'Sleep well, whenever your night is.' });
      // Each finding is said once, naming its source, in the scene of the segment it shares most words with; a
      // heading-style segment is announced before its finding.
      expect(script.scenes[0].lines.map((l) => l.text)).toEqual(
        expect.arrayContaining([
          'First up: Why night workers sleep badly.',
          'According to Sleep Foundation guide, night workers who keep a fixed sleep window report better sleep quality.',
        ]),
      );
      expect(script.scenes[1].lines.map((l) => l.text)).toEqual(
        expect.arrayContaining([
          'Moving on: Building a daytime sleep routine.',
          'According to example.org, blackout curtains cut daytime light in bedrooms.',
        ]),
      );
      // A heading with nothing to follow it is not announced (it would say nothing).
      expect(text(script)).not.toMatch(/What to try tonight/);
      expect(text(plain)).not.toMatch(/According to/);
      expect(text(script)).toMatch(/nurses on night shifts/);
      expect(text(plain)).not.toMatch(/nurses/);
      // Findings about something else are left out.
      const offTopic = write({ ...base, idea: 'jazz history', research, analysis: undefined }).script;
      expect(text(offTopic)).not.toMatch(/According to/);
      // Within the budget, both speakers talking.
      expect(script.word_count).toBeLessThanOrEqual(input.target_words);
      expect(new Set(lines.map((l) => l.speaker))).toEqual(new Set(['alice', 'bob']));
    });
  });
});

describe('a scene retaken with the client’s own words (POST /api/podcast/audio text)', () => {
  const speakers = normaliseSpeakers([{ name: 'Maya' }, { name: 'Tom' }]);
  const [maya, tom] = speakers.map((s) => s.id);
  const scene = { lines: [{ speaker: tom, text: 'Welcome back.' }] };
  it("gives each named line to its speaker and the rest to the speaker before (at first the scene's first)", () => {
    expect(
      retakeLines('Hello and welcome.\nmaya: Thanks, Tom.\n\nGlad to be here.\nTOM: Let us begin.', scene, speakers),
    ).toEqual([
      { speaker: tom, text: 'Hello and welcome.' },
      { speaker: maya, text: 'Thanks, Tom. Glad to be here.' },
      { speaker: tom, text: 'Let us begin.' },
    ]);
  });
  it('keeps a colon that names no speaker as text', () => {
    expect(retakeLines('Rule one: sleep in the dark.', scene, speakers)).toEqual([
      { speaker: tom, text: 'Rule one: sleep in the dark.' },
    ]);
  });
});
