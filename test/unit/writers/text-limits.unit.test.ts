/**
 * Platform limits on output: shortening never exceeds the limit and never
 * cuts inside a word (property tests over random texts and limits), and the
 * hashtag, emoji and line-break rules keep the first items.
 */
import fc from 'fast-check';
import {
  charCount,
  emojiIn,
  enforceLimits,
  hashtagsIn,
  lineBreaks,
  normaliseHashtags,
  shortenText,
  shortenToWords,
} from '../../../domain/writers/text-limits';

const word = fc.stringMatching(/^[A-Za-z]{1,12}$/);
const sentence = fc
  .tuple(fc.array(word, { minLength: 1, maxLength: 14 }), fc.constantFrom('.', '!', '?'))
  .map(([ws, end]) => `${ws[0][0].toUpperCase()}${ws.join(' ').slice(1)}${end}`);
const paragraph = fc.array(sentence, { minLength: 1, maxLength: 6 }).map((s) => s.join(' '));
const textArb = fc
  .tuple(fc.array(paragraph, { minLength: 1, maxLength: 4 }), fc.constantFrom('', ' 🚀', ' ✅✨'))
  .map(([ps, e]) => ps.join('\n\n') + e);

/** A cut keeps whole words: the prefix ends where the original has a non-letter next. */
function cutsWholeWords(original: string, shortened: string): boolean {
  const stem = shortened.replace(/…$/, '');
  if (!original.startsWith(stem)) return false;
  const next = original.slice(stem.length, stem.length + 1);
  return next === '' || !/[\p{L}\p{N}]/u.test(next) || !/[\p{L}\p{N}]$/u.test(stem);
}

describe('shortenText', () => {
  it('never exceeds the limit and never cuts inside a word (property)', () => {
    fc.assert(
      fc.property(textArb, fc.integer({ min: 1, max: 600 }), (text, max) => {
        const r = shortenText(text, max);
        expect(charCount(r.text)).toBeLessThanOrEqual(max);
        expect(cutsWholeWords(text.trim(), r.text)).toBe(true);
        if (charCount(text.trim()) <= max) expect(r.text).toBe(text.trim());
      }),
      { numRuns: 500 },
    );
  });

  it('prefers a sentence boundary when one fits', () => {
    const t = 'First sentence is short. Second sentence is a good deal longer than the first one.';
    expect(shortenText(t, 40)).toEqual({ text: 'First sentence is short.', method: 'sentence' });
    // Nothing but part of the first sentence fits: whole words and an ellipsis.
    expect(shortenText(t, 12)).toEqual({ text: 'First…', method: 'word' });
    expect(shortenText(t, 12, { ellipsis: false })).toEqual({ text: 'First', method: 'word' });
    expect(shortenText('Supercalifragilistic', 5).text).toBe('');
  });

  it('a word cut ends a phrase: at its last break when that keeps half the room, never on a dangling word', () => {
    // The carousel cover title of the brief about a bookshop's author events (40 characters) ended on "Every".
    expect(shortenText('Author events at Riverside Books Every Thursday evening', 40, { ellipsis: false }).text).toBe(
      'Author events at Riverside Books',
    );
    expect(shortenText('Author events at Riverside Books: every Thursday at seven', 40).text).toBe(
      'Author events at Riverside Books…',
    );
    expect(shortenText('How to plan the content calendar for a small team and keep it', 40).text).toBe(
      'How to plan the content calendar…',
    );
    // A break too early to keep half the room is not used; a lone word is kept even when it is a dangling one.
    expect(shortenText('Tips, then a long list of the ways to plan posts ahead', 30, { ellipsis: false }).text).toBe(
      'Tips, then a long list',
    );
    expect(shortenText('The supercalifragilistic', 10, { ellipsis: false }).text).toBe('The');
  });

  it('counts an emoji as one character', () => {
    expect(charCount('ok 🚀')).toBe(4);
    expect(shortenText('Go now 🚀. Then wait.', 9).text).toBe('Go now 🚀.');
  });
});

describe('shortenToWords', () => {
  it('keeps whole sentences within the word budget', () => {
    const r = shortenToWords('One two three. Four five six seven. Eight.', 5);
    expect(r).toEqual({ text: 'One two three.', shortened: true });
    expect(shortenToWords('One two three four five six', 3).text).toBe('One two three…');
  });
});

describe('enforceLimits', () => {
  it('keeps the first hashtags and emoji, joins the last lines, then shortens', () => {
    const text = 'Big news 🎉🎉 today! #One #Two\n\nLine two 🚀\n\nLine three\n\nLine four #Three #Four';
    const r = enforceLimits(text, { max_characters: 1000, max_hashtags: 2, max_emoji: 1, max_line_breaks: 2 }, 'text');
    expect(hashtagsIn(r.text)).toEqual(['#One', '#Two']);
    expect(emojiIn(r.text)).toEqual(['🎉']);
    expect(lineBreaks(r.text)).toBeLessThanOrEqual(2);
    expect(r.text.startsWith('Big news 🎉 today! #One #Two\n\n')).toBe(true);
    expect(r.adjustments.map((a) => a.rule)).toEqual(['max_hashtags', 'max_emoji', 'max_line_breaks']);
  });

  it('holds any text to every limit (property)', () => {
    fc.assert(
      fc.property(
        textArb,
        fc.integer({ min: 20, max: 400 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 4 }),
        (text, max, tags, emoji, breaks) => {
          const withTags = `${text} #Alpha #Beta #Gamma #Delta`;
          const r = enforceLimits(
            withTags,
            { max_characters: max, max_hashtags: tags, max_emoji: emoji, max_line_breaks: breaks },
            'text',
          );
          expect(charCount(r.text)).toBeLessThanOrEqual(max);
          expect(hashtagsIn(r.text).length).toBeLessThanOrEqual(tags);
          expect(emojiIn(r.text).length).toBeLessThanOrEqual(emoji);
          expect(lineBreaks(r.text)).toBeLessThanOrEqual(breaks);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('normaliseHashtags', () => {
  it('camel-cases phrases, drops duplicates and empties, caps the count', () => {
    expect(normaliseHashtags(['content marketing', '#ContentMarketing', 'SEO', '!!', 'b2b sales', 'x'], 3)).toEqual([
      '#ContentMarketing',
      '#SEO',
      '#B2bSales',
    ]);
  });
});
