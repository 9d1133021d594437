/**
 * The units the coherence measure (coherence.ts) reads: the headings and
 * body sentences of a Markdown document, or the lines of a plain text.
 */
import { splitSentences } from './sentences';
import { TextDocument } from './text';
import { Span } from './types';

/** One sentence (or heading) the measure reads, with offsets into the caller's text. */
export interface CoherenceUnit extends Span {
  text: string;
  heading: boolean;
  /** Heading level (1–6), 0 for body sentences. */
  level: number;
  /** Paragraph (block) index: sentences of one block are neighbours. */
  block: number;
}

/** Units of a parsed Markdown document (headings and body sentences). */
export function documentUnits(doc: TextDocument): CoherenceUnit[] {
  return doc.sentences.map((s) => ({
    start: s.start,
    end: s.end,
    text: s.text,
    heading: s.blockKind === 'heading',
    level: s.blockKind === 'heading' ? doc.blocks[s.blockIndex].level : 0,
    block: s.blockIndex,
  }));
}

/**
 * Units of plain text (a social post): paragraphs are separated by blank
 * lines, every line ends a sentence, and no line is a heading.
 */
export function plainTextUnits(text: string): CoherenceUnit[] {
  const units: CoherenceUnit[] = [];
  let block = 0;
  let offset = 0;
  let blank = false;
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      if (!blank && units.length > 0) block++;
      blank = true;
    } else {
      blank = false;
      for (const sp of splitSentences(line)) {
        const s = line.slice(sp.start, sp.end);
        if (!/[\p{L}\p{N}]/u.test(s)) continue;
        units.push({ start: offset + sp.start, end: offset + sp.end, text: s, heading: false, level: 0, block });
      }
    }
    offset += line.length + 1;
  }
  return units;
}
