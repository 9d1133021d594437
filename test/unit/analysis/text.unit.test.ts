import { buildDocument, bodySentences } from '../../../domain/analysis/text';
import { splitSentences } from '../../../domain/analysis/sentences';
import { tokenize } from '../../../domain/analysis/words';
import { countSyllables } from '../../../domain/analysis/syllables';
import { parseMarkdown } from '../../../domain/analysis/markdown';
import { isEasyWord } from '../../../domain/analysis/easy-words';

const texts = (s: string): string[] => splitSentences(s).map((sp) => s.slice(sp.start, sp.end));

describe('sentence splitting', () => {
  it('keeps abbreviations, initials, decimals and URLs inside sentences', () => {
    expect(texts('Mr. Smith paid $3.5 million. He left.')).toEqual(['Mr. Smith paid $3.5 million.', 'He left.']);
    expect(texts('Use a tool, e.g. a linter. Then ship.')).toEqual(['Use a tool, e.g. a linter.', 'Then ship.']);
    expect(texts('J. K. Rowling wrote it. Dr. Who agreed.')).toEqual(['J. K. Rowling wrote it.', 'Dr. Who agreed.']);
    expect(texts('See https://example.com/a.html for more. Next one.')).toEqual([
      'See https://example.com/a.html for more.',
      'Next one.',
    ]);
    expect(texts('Pi is 3.14 roughly. Fine!')).toEqual(['Pi is 3.14 roughly.', 'Fine!']);
  });

  it('splits after "U.S." only when a sentence opener follows', () => {
    expect(texts('It grew in the U.S. Army bases.')).toHaveLength(1);
    expect(texts('It grew in the U.S. The rest shrank.')).toEqual(['It grew in the U.S.', 'The rest shrank.']);
  });

  it('handles question/exclamation marks, quotes and ellipses', () => {
    expect(texts('Is it good? "Yes," she said. Wait... and see.')).toEqual([
      'Is it good?',
      '"Yes," she said.',
      'Wait... and see.',
    ]);
  });
});

describe('tokenizer', () => {
  it('classifies words, numbers and URLs', () => {
    const t = tokenize("Don't pay $1,200 (45%) at www.example.com/x today; state-of-the-art U.S. tools.");
    expect(t.map((x) => `${x.text}:${x.kind}`)).toEqual([
      "Don't:word",
      'pay:word',
      '$1,200:number',
      '45%:number',
      'at:word',
      'www.example.com/x:url',
      'today:word',
      'state-of-the-art:word',
      'U.S:word',
      'tools:word',
    ]);
  });
});

describe('markdown structure with offsets', () => {
  const md =
    '# Title\n\nA **bold** [link](http://x.com) here.\nSecond line.\n\n- one\n- two\n\n```\ncode. Not prose.\n```\n\n## Sub\n\n> quoted text';
  it('finds blocks and strips inline markup', () => {
    const blocks = parseMarkdown(md);
    expect(blocks.map((b) => [b.kind, b.level, b.text])).toEqual([
      ['heading', 1, 'Title'],
      ['paragraph', 0, 'A bold link here. Second line.'],
      ['list_item', 0, 'one'],
      ['list_item', 0, 'two'],
      ['code', 0, ''],
      ['heading', 2, 'Sub'],
      ['blockquote', 0, 'quoted text'],
    ]);
    expect(blocks[2].listId).toBe(blocks[3].listId);
  });

  it('maps sentences and words back to original offsets', () => {
    const doc = buildDocument(md);
    const body = bodySentences(doc);
    expect(body.map((s) => md.slice(s.start, s.end))).toEqual([
      'A **bold** [link](http://x.com) here.',
      'Second line.',
      'one',
      'two',
      'quoted text',
    ]);
    const link = body[0].tokens.find((t) => t.text === 'link')!;
    expect(md.slice(link.start, link.end)).toBe('link');
  });

  it('recognises setext and HTML headings', () => {
    const b = parseMarkdown('Big title\n=========\n\n<h3 class="x">Small <em>one</em></h3>\n\nText.');
    expect(b.map((x) => [x.kind, x.level, x.text])).toEqual([
      ['heading', 1, 'Big title'],
      ['heading', 3, 'Small one'],
      ['paragraph', 0, 'Text.'],
    ]);
  });
});

describe('syllables', () => {
  // counts checked against a dictionary by hand
  const expected: Record<string, number> = {
    the: 1,
    cat: 1,
    make: 1,
    table: 2,
    tables: 2,
    jumped: 1,
    wanted: 2,
    loved: 1,
    lovely: 2,
    movement: 2,
    player: 2,
    playing: 2,
    trying: 2,
    going: 2,
    media: 3,
    social: 2,
    radio: 3,
    nation: 2,
    video: 3,
    people: 2,
    theory: 3,
    happier: 3,
    quiet: 2,
    audience: 3,
    science: 2,
    patient: 2,
    readability: 5,
    syllable: 3,
    beautiful: 3,
    every: 2,
    area: 3,
    create: 2,
    interesting: 4,
    completely: 3,
    family: 3,
    changes: 2,
    boxes: 2,
    makes: 1,
    places: 2,
    value: 2,
    language: 2,
    actual: 3,
    biology: 4,
    question: 2,
    stadium: 3,
    formulas: 3,
    estimate: 3,
    difficulty: 4,
    gardens: 2,
    'well-known': 2,
    '2023': 1,
  };
  it.each(Object.entries(expected))('%s has %i', (w, n) => expect(countSyllables(w)).toBe(n));
});

describe('easy word list', () => {
  it('accepts listed words and their regular inflections', () => {
    for (const w of ['house', 'houses', 'played', 'running', 'happier', 'stopped']) expect(isEasyWord(w)).toBe(true);
    expect(isEasyWord('readability')).toBe(false);
  });
});
