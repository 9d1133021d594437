import {
  captionChars,
  captionStyle,
  chunkText,
  cuesFromSentences,
  shiftCues,
  toAss,
  toSrt,
  toWebVtt,
  wrapLines,
} from '../../../domain/media/subtitles';

describe('subtitles from measured timings', () => {
  const sentences = [
    { text: 'Morning routines shape the day.', start: 0.3, end: 2.1 },
    { text: 'Start with water, then plan three priorities & move.', start: 2.35, end: 5.05 },
  ];

  it('one cue per short sentence at its measured times; SRT numbered with commas, WebVTT with dots', () => {
    const cues = cuesFromSentences(sentences);
    expect(cues).toEqual([
      { start: 0.3, end: 2.1, text: 'Morning routines shape the day.' },
      { start: 2.35, end: 5.05, text: 'Start with water, then plan three priorities & move.' },
    ]);
    expect(toSrt(cues)).toBe(
      '1\n00:00:00,300 --> 00:00:02,100\nMorning routines shape the day.\n\n' +
        '2\n00:00:02,350 --> 00:00:05,050\nStart with water, then plan\nthree priorities & move.\n',
    );
    const vtt = toWebVtt(cues);
    expect(vtt.startsWith('WEBVTT\n\n00:00:00.300 --> 00:00:02.100\n')).toBe(true);
    expect(vtt).toContain('priorities &amp; move.');
  });

  it('a long sentence becomes several cues sharing its time by characters, ending exactly at the sentence end', () => {
    const text = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
    const cues = cuesFromSentences([{ text, start: 10, end: 22 }]);
    expect(cues.length).toBeGreaterThan(1);
    expect(cues[0].start).toBe(10);
    expect(cues[cues.length - 1].end).toBe(22);
    for (let i = 1; i < cues.length; i++) expect(cues[i].start).toBeCloseTo(cues[i - 1].end, 9);
    for (const c of cues) expect(c.text.length).toBeLessThanOrEqual(84);
    expect(cues.map((c) => c.text).join(' ')).toBe(text);
  });

  it('hour stamps, shifting, wrapping, chunking and empty input', () => {
    expect(toSrt([{ start: 3725.5, end: 3726, text: 'x' }])).toContain('01:02:05,500 --> 01:02:06,000');
    expect(shiftCues([{ start: 1, end: 2, text: 'a' }], 10)).toEqual([{ start: 11, end: 12, text: 'a' }]);
    expect(wrapLines('short')).toBe('short');
    expect(chunkText('  a  b  ', 84)).toEqual(['a b']);
    expect(cuesFromSentences([{ text: '   ', start: 0, end: 1 }])).toEqual([]);
    expect(toWebVtt([])).toBe('WEBVTT\n\n');
    // A cue can never contain the arrow that separates times, nor a blank line that ends it.
    expect(toSrt([{ start: 0, end: 1, text: 'a --> b' }])).not.toMatch(/a --> b/);
  });
});

describe('burned-in captions (ASS in the frame’s own pixels)', () => {
  const cue = { start: 1.234, end: 3.5, text: 'Independent bookshops can host\na monthly author night {\\b1} here.' };
  it('sizes the font by the frame: narrow frames by width, wide frames by height; margins in the title-safe area', () => {
    expect(captionStyle(1080, 1920)).toEqual({ fontSize: 68, outline: 4, marginH: 76, marginV: 134 });
    expect(captionStyle(1920, 1080)).toEqual({ fontSize: 60, outline: 4, marginH: 134, marginV: 76 });
    expect(captionStyle(1080, 1080)).toEqual({ fontSize: 60, outline: 4, marginH: 76, marginV: 76 });
    expect(captionStyle(480, 854)).toEqual({ fontSize: 30, outline: 2, marginH: 34, marginV: 60 });
    // About 25 characters a line fit a 9:16 frame's safe width at 0.55 em a character, 50 a 16:9 frame's.
    const perLine = (w: number, h: number) => {
      const s = captionStyle(w, h);
      return Math.floor((w - 2 * s.marginH) / (0.55 * s.fontSize));
    };
    expect([perLine(1080, 1920), perLine(1920, 1080), perLine(1080, 1080)]).toEqual([24, 50, 28]);
  });
  it('says PlayRes = the frame, joins the cue’s own line breaks and neutralises override braces', () => {
    const ass = toAss([cue], 1080, 1920);
    expect(ass).toContain('PlayResX: 1080\nPlayResY: 1920\nWrapStyle: 0');
    expect(ass).toContain('Style: Default,DejaVu Sans,68,');
    // Longer than two of a 9:16 frame's lines (44 characters): cut before the noun phrase, time shared by characters.
    expect(ass).toContain('Dialogue: 0,0:00:01.23,0:00:02.30,Default,,0,0,0,,Independent bookshops can host\n');
    expect(ass).toContain('Dialogue: 0,0:00:02.30,0:00:03.50,Default,,0,0,0,,a monthly author night (/b1) here.\n');
    // A 16:9 frame holds it in one cue.
    expect(toAss([cue], 1920, 1080)).toContain(
      'Dialogue: 0,0:00:01.23,0:00:03.50,Default,,0,0,0,,Independent bookshops can host a monthly author night (/b1) here.',
    );
  });
  it('holds every cue to two of the frame’s lines: about 22 characters a line on 9:16, 25 on 1:1, 42 on 16:9', () => {
    expect([captionChars(1080, 1920), captionChars(1080, 1080), captionChars(1920, 1080)]).toEqual([
      { line: 22, cue: 44 },
      { line: 25, cue: 50 },
      { line: 42, cue: 84 },
    ]);
    expect(captionChars(480, 854)).toEqual({ line: 22, cue: 44 });
    const long = {
      start: 0,
      end: 9,
      text: 'Independent bookshops can host a monthly author night in the back room, and readers who come once tend to come back with friends.',
    };
    for (const [w, h] of [
      [1080, 1920],
      [1080, 1080],
      [1920, 1080],
      [480, 854],
      [854, 480],
      [480, 480],
    ]) {
      const lines = toAss([long], w, h)
        .split('\n')
        .filter((l) => l.startsWith('Dialogue:'));
      const texts = lines.map((l) => l.split(',,0,0,0,,')[1]);
      expect(texts.join(' ')).toBe(long.text);
      for (const t of texts) expect(t.length).toBeLessThanOrEqual(captionChars(w, h).cue);
    }
  });
});

describe('cues split at phrase boundaries, never inside a word or after an article', () => {
  it('prefers sentence ends, then commas, then clause starts; never ends a cue on a weak word', () => {
    const text =
      'Independent bookshops can host a monthly author night in the back room, and readers who come once tend to come back with friends.';
    expect(chunkText(text, 84)).toEqual([
      'Independent bookshops can host a monthly author night in the back room,',
      'and readers who come once tend to come back with friends.',
    ]);
    const narrow = chunkText(text, 44);
    expect(narrow.join(' ')).toBe(text);
    const weak = /\b(a|an|the|of|to|in|on|at|for|with|and|or|but|is|are)$/i;
    for (const c of narrow) {
      expect(c.length).toBeLessThanOrEqual(44);
      expect(c).not.toMatch(weak);
    }
    expect(chunkText('We met at noon. Then we talked about the plan for the shop and the reading.', 40)[0]).toBe(
      'We met at noon.',
    );
  });
});
