import { cardLayout, keyLine, MAX_ZOOM } from '../../../domain/media/card';

const frames: Array<[number, number]> = [
  [1080, 1920],
  [1920, 1080],
  [1080, 1080],
  [480, 854],
  [854, 480],
];
const still = (w: number, h: number) => ({ width: Math.ceil((w * 1.2) / 2) * 2, height: Math.ceil((h * 1.2) / 2) * 2 });

describe('designed cards (heading and key line in the part of the still every frame shows)', () => {
  it('keeps every line inside the safe area of the zoomed frame, above the captions, for every frame', () => {
    const text = {
      heading: 'Host a monthly author night in the back room of an independent bookshop',
      line: 'Readers who come once tend to come back with friends, and they buy books.',
    };
    for (const [w, h] of frames) {
      const s = still(w, h);
      const c = cardLayout(text, s, { width: w, height: h });
      // The safe area lies inside what the frame shows at the largest zoom (the central 1/1.15 of the still).
      expect(c.safe.left).toBeGreaterThanOrEqual((s.width - s.width / MAX_ZOOM) / 2);
      expect(c.safe.right).toBeLessThanOrEqual((s.width + s.width / MAX_ZOOM) / 2);
      for (const l of c.lines) {
        expect(l.x).toBeGreaterThanOrEqual(c.safe.left - 0.5);
        expect(l.x + l.width).toBeLessThanOrEqual(c.safe.right + 0.5);
        expect(l.y).toBeGreaterThanOrEqual(c.safe.top - 0.5);
        expect(l.y + l.height).toBeLessThanOrEqual(c.safe.bottom + 0.5);
      }
      // Every word is set, none cut: the lines read back as the heading and the key line.
      expect(c.lines.map((l) => l.text).join(' ')).toBe(`${text.heading} ${text.line}`);
      expect(c.svg).toContain('font-family="DejaVu Sans"');
    }
  });

  it('a long heading shrinks until it fits three lines; markup in the text is escaped', () => {
    const heading = 'A very long heading that a planner wrote without any regard for how narrow a vertical frame is';
    const c = cardLayout({ heading: `${heading} <b>&</b>` }, still(480, 854), { width: 480, height: 854 });
    expect(c.lines.length).toBeLessThanOrEqual(3);
    expect(c.svg).toContain('&lt;b&gt;&amp;&lt;/b&gt;');
    expect(c.svg).not.toContain('<b>');
  });

  it('the key line: the first sentence beyond the heading, cut at a phrase with an ellipsis when long', () => {
    expect(keyLine('Keep it short', 'Keep it short. Ask the author to read for ten minutes.')).toBe(
      'Ask the author to read for ten minutes.',
    );
    expect(keyLine('Close', 'Bye now.')).toBeUndefined();
    const long = keyLine(
      'Events',
      'Independent bookshops can host a monthly author night in the back room, and readers who come once tend to come back with friends and family.',
    )!;
    expect(long.length).toBeLessThanOrEqual(90);
    expect(long.endsWith('…')).toBe(true);
    expect(long).toBe('Independent bookshops can host a monthly author night in the back room…');
  });
});
