import { chunkText, cuesFromSentences, shiftCues, toSrt, toWebVtt, wrapLines } from '../../../domain/media/subtitles';

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
