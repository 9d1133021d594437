import { buildDocument, bodySentences } from '../../../domain/analysis/text';
import {
  TextCounts,
  automatedReadabilityIndex,
  colemanLiau,
  consensusGrade,
  countText,
  daleChall,
  daleChallGrade,
  fleschGrade,
  fleschKincaidGrade,
  fleschReadingEase,
  gunningFog,
  readabilityScores,
  readingTimeMinutes,
  smog,
} from '../../../domain/analysis/readability';

const counts = (text: string): TextCounts => countText(bodySentences(buildDocument(text)));

describe('readability formulas on hand-counted texts', () => {
  /*
   * "The cat sat on the bed. The dog ran to the park."
   * words 6 + 6 = 12, sentences 2, every word one syllable -> 12 syllables.
   * letters: 3+3+3+2+3+3 = 17 and 3+3+3+2+3+4 = 18 -> 35.
   * No 3-syllable words; every word is on the easy list.
   */
  const simple = 'The cat sat on the bed. The dog ran to the park.';
  const hand1: TextCounts = {
    sentences: 2,
    words: 12,
    syllables: 12,
    letters: 35,
    complexWords: 0,
    polysyllables: 0,
    difficultWords: 0,
  };

  /*
   * "Readability formulas estimate difficulty. Beautiful gardens need patient work."
   * S1: read-a-bil-i-ty 5, for-mu-las 3, es-ti-mate 3, dif-fi-cul-ty 4 -> 4 words, 15 syllables
   * S2: beau-ti-ful 3, gar-dens 2, need 1, pa-tient 2, work 1 -> 5 words, 9 syllables
   * letters 11+8+8+10 + 9+7+4+7+4 = 68; 3+ syllables: 5 words (all count for fog: none is a
   * non-initial capitalised word, hyphenated or merely inflected); difficult (not on our list):
   * readability, formulas, estimate, difficulty -> 4.
   */
  const hard = 'Readability formulas estimate difficulty. Beautiful gardens need patient work.';
  const hand2: TextCounts = {
    sentences: 2,
    words: 9,
    syllables: 24,
    letters: 68,
    complexWords: 5,
    polysyllables: 5,
    difficultWords: 4,
  };

  it('counts match the hand counts', () => {
    expect(counts(simple)).toEqual(hand1);
    expect(counts(hard)).toEqual(hand2);
  });

  it.each([
    ['simple', hand1],
    ['hard', hand2],
  ])('formulas match their definitions (%s)', (_name, c) => {
    const W = c.words,
      S = c.sentences,
      Sy = c.syllables,
      L = c.letters;
    expect(fleschReadingEase(c)).toBeCloseTo(206.835 - 1.015 * (W / S) - 84.6 * (Sy / W), 10);
    expect(fleschKincaidGrade(c)).toBeCloseTo(0.39 * (W / S) + 11.8 * (Sy / W) - 15.59, 10);
    expect(gunningFog(c)).toBeCloseTo(0.4 * (W / S + (100 * c.complexWords) / W), 10);
    expect(colemanLiau(c)).toBeCloseTo(0.0588 * ((L / W) * 100) - 0.296 * ((S / W) * 100) - 15.8, 10);
    expect(smog(c)).toBeCloseTo(1.043 * Math.sqrt((c.polysyllables * 30) / S) + 3.1291, 10);
    expect(automatedReadabilityIndex(c)).toBeCloseTo(4.71 * (L / W) + 0.5 * (W / S) - 21.43, 10);
    const pct = (100 * c.difficultWords) / W;
    expect(daleChall(c)).toBeCloseTo(0.1579 * pct + 0.0496 * (W / S) + (pct > 5 ? 3.6365 : 0), 10);
  });

  it('gives the expected numbers for the simple text', () => {
    // 206.835 - 1.015*6 - 84.6*1 = 116.145 ; 0.39*6 + 11.8 - 15.59 = -1.45
    expect(fleschReadingEase(hand1)).toBeCloseTo(116.145, 6);
    expect(fleschKincaidGrade(hand1)).toBeCloseTo(-1.45, 6);
    expect(gunningFog(hand1)).toBeCloseTo(2.4, 6);
    // SMOG with no polysyllables is the constant 3.1291
    expect(smog(hand1)).toBeCloseTo(3.1291, 6);
    expect(daleChall(hand1)).toBeCloseTo(0.0496 * 6, 6);
  });

  it('consensus grade is the median of seven grade estimates', () => {
    const c = hand2;
    const grades = [
      fleschKincaidGrade(c),
      gunningFog(c),
      colemanLiau(c),
      smog(c),
      automatedReadabilityIndex(c),
      daleChallGrade(daleChall(c)),
      fleschGrade(fleschReadingEase(c)),
    ].sort((a, b) => a - b);
    expect(consensusGrade(c)).toBe(grades[3]);
  });

  it('returns zeros, not NaN, for empty text', () => {
    const s = readabilityScores(counts(''));
    expect(Object.values(s).every((v) => v === 0)).toBe(true);
  });

  it('reading time uses 238 words per minute', () => {
    expect(readingTimeMinutes(476)).toBe(2);
  });
});
