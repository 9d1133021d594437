/**
 * The coherence measure (domain/analysis/coherence.ts): topicality stays high
 * on ordinary on-topic prose (pronouns, synonyms, logistics; the corpus
 * articles), falls on a text padded with other subjects, and repetition counts
 * copied sentences and repeated wording but not the subject named again.
 */
import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import {
  COHERENCE_SCORE_CAP,
  documentUnits,
  measureCoherence,
  plainTextUnits,
  REPEATED_4GRAM_OK,
  textCoherence,
  TOPICALITY_CAP,
} from '../../../domain/analysis/coherence';
import { buildDocument } from '../../../domain/analysis/text';
import {
  BOOKSHOP_KEYWORDS,
  BOOKSHOP_TITLE,
  GOOD_ARTICLE,
  GOOD_POST,
  INCOHERENT_ARTICLE,
  OFF_TOPIC_POST,
  ON_TOPIC_TEXTS,
  READING_TOPIC,
  REPEATED_POST,
} from './fixtures/coherence-texts';

const markdown = (text: string, subject: string[] = []) =>
  measureCoherence(documentUnits(buildDocument(text)), subject);

describe('topicality of ordinary on-topic prose', () => {
  it.each([[[]], [BOOKSHOP_KEYWORDS], [[BOOKSHOP_TITLE]]])(
    'the good bookshop article stays at or above 0.8 (subject %j), with no repetition',
    (subject) => {
      const c = markdown(GOOD_ARTICLE, subject);
      expect(c.topicality).toBeGreaterThanOrEqual(0.8);
      expect(c.off_topic_text).toBe(false);
      expect(c.duplicate_sentences).toBe(0);
      expect(c.repeated_4gram_share).toBeLessThanOrEqual(REPEATED_4GRAM_OK);
      expect(c.capped).toBe(false);
      expect(c.coherence).toBeGreaterThanOrEqual(0.9);
    },
  );

  it.each(ON_TOPIC_TEXTS.map((t) => [t.name, t]))(
    '%s: pronouns, synonyms and related words keep topicality >= 0.8 (own title and a keyword)',
    (_name, t) => {
      expect(markdown(t.text).topicality).toBeGreaterThanOrEqual(0.8);
      expect(markdown(t.text, [t.keyword]).topicality).toBeGreaterThanOrEqual(0.8);
    },
  );

  it('every article of data/corpus stays at or above 0.8 against its own title and a keyword from it, and is not repetitive', () => {
    const dir = join(__dirname, '../../../data/corpus');
    const files = readdirSync(dir).filter((f) => f.endsWith('.md'));
    expect(files.length).toBeGreaterThan(10);
    for (const f of files) {
      const text = readFileSync(join(dir, f), 'utf8').replace(/^---[\s\S]*?---\n/, '');
      // A keyword from the title: its two longest words ("Calendar Content", "Backlink Makes").
      const title = /^# (.*)$/m.exec(text)?.[1] ?? '';
      const keyword = title
        .split(/[^\p{L}]+/u)
        .sort((a, b) => b.length - a.length)
        .slice(0, 2)
        .join(' ');
      const own = markdown(text);
      const given = markdown(text, [keyword]);
      expect([f, own.topicality >= 0.8, given.topicality >= 0.8]).toEqual([f, true, true]);
      expect(own.repeated_4gram_share).toBeLessThanOrEqual(REPEATED_4GRAM_OK);
      expect(own.duplicate_sentences).toBe(0);
    }
  });

  it('a good post keeps topicality 1 with and without the topic', () => {
    expect(textCoherence(GOOD_POST).topicality).toBe(1);
    expect(textCoherence(GOOD_POST, [READING_TOPIC]).topicality).toBe(1);
  });
});

describe('topicality of padded and off-topic text', () => {
  it.each([[[]], [BOOKSHOP_KEYWORDS], [[BOOKSHOP_TITLE]]])(
    'the incoherent bookshop article falls below the cap (subject %j) and names what it drifts to',
    (subject) => {
      const c = markdown(INCOHERENT_ARTICLE, subject);
      expect(c.topicality).toBeLessThan(TOPICALITY_CAP);
      expect(c.off_topic_text).toBe(true);
      expect(c.other_terms).toEqual(expect.arrayContaining(['podcast', 'backlinks']));
      const off = c.off_topic.map((s) => s.text);
      expect(off).toContain('Backlinks from news sites are worth more than dozens of directory links.');
      expect(off).not.toContain('Author events bring readers into an independent bookshop.');
      // Offsets point at the sentence in the input.
      for (const s of c.off_topic) expect(INCOHERENT_ARTICLE.slice(s.start, s.end)).toContain(s.text.slice(0, 20));
    },
  );

  it('the post that mostly gives podcast advice is off topic, with or without its topic', () => {
    for (const subject of [[], [READING_TOPIC]]) {
      const c = textCoherence(OFF_TOPIC_POST, subject);
      expect(c.topicality).toBeLessThan(TOPICALITY_CAP);
      expect(c.other_terms).toContain('podcast');
      expect(c.capped).toBe(true);
    }
  });

  it('a text that never mentions the subject it was given is off topic', () => {
    const c = textCoherence(GOOD_POST, ['quarterly tax returns for freelancers']);
    expect(c.topicality).toBe(0);
    expect(c.off_topic_text).toBe(true);
  });
});

describe('repetition', () => {
  it('the same sentence three times: two duplicates, repetitive, capped', () => {
    const c = textCoherence(REPEATED_POST);
    expect(c.duplicate_sentences).toBe(2);
    expect(c.duplicates[0]).toMatchObject({ count: 3 });
    expect(c.duplicates[0].spans).toHaveLength(3);
    expect(c.repeated_4gram_share).toBeGreaterThan(0.1);
    expect(c.repetitive).toBe(true);
    expect(c.repetition_score).toBe(0);
    expect(c.capped).toBe(true);
  });

  it('the incoherent article repeats its template sentences', () => {
    const c = markdown(INCOHERENT_ARTICLE);
    expect(c.duplicate_sentences).toBe(4);
    expect(c.repetitive).toBe(true);
  });

  it('one copied sentence in a long text costs a quarter but does not cap it', () => {
    const copy = GOOD_ARTICLE.replace(
      'Posters in the window still work.',
      'Posters in the window still work. Maria has run them for six years now.',
    ).replace('Wine and water are free.', 'Wine and water are free. Maria has run them for six years now.');
    const c = markdown(copy);
    expect(c.duplicate_sentences).toBe(1);
    expect(c.repetition_score).toBeCloseTo(0.75, 6);
    expect(c.repetitive).toBe(false);
  });

  it('naming the subject again is not repetition; short sentences are never duplicates', () => {
    const text =
      'Join our author reading at Riverside Books on Thursday.\nClara Hughes reads from her new novel.\nThe author reading at Riverside Books starts at 7 pm.\nSee you there!\nSee you there!';
    const c = textCoherence(text, [READING_TOPIC]);
    expect(c.repeated_4gram_share).toBe(0);
    expect(c.duplicate_sentences).toBe(0);
    expect(c.capped).toBe(false);
  });
});

describe('units of plain text', () => {
  it('every line ends a sentence, blank lines separate paragraphs, offsets point into the text', () => {
    const text = 'Big night\nClara reads. Doors open at 7.\n\nSee you there!';
    const units = plainTextUnits(text);
    expect(units.map((u) => [u.text, u.block])).toEqual([
      ['Big night', 0],
      ['Clara reads.', 0],
      ['Doors open at 7.', 0],
      ['See you there!', 1],
    ]);
    for (const u of units) expect(text.slice(u.start, u.end)).toBe(u.text);
  });

  it('the cap is 50', () => {
    expect(COHERENCE_SCORE_CAP).toBe(50);
  });
});
