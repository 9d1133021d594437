/**
 * The text model every analysis shares: Markdown blocks -> sentences ->
 * word tokens, all carrying offsets into the original string.
 *
 * Building it once per request and handing it to the SEO, flow and claim
 * analyses keeps them consistent (the same sentence boundaries everywhere)
 * and cheap (the input is parsed once).
 */
import { Block, BlockKind, isProse, parseMarkdown } from './markdown';
import { splitSentences } from './sentences';
import { Token, tokenize } from './words';
import { Span } from './types';

export interface Sentence extends Span {
  /** Plain text (markup stripped). */
  text: string;
  blockIndex: number;
  blockKind: BlockKind;
  /** Tokens with offsets into the original input. */
  tokens: Token[];
}

export interface TextDocument {
  content: string;
  blocks: Block[];
  sentences: Sentence[];
}

/** Map a plain-text span of a block back to original offsets. */
export function toOriginal(block: Block, s: number, e: number): Span {
  return { start: block.map[s], end: block.map[e - 1] + 1 };
}

export function buildDocument(content: string): TextDocument {
  const blocks = parseMarkdown(content);
  const sentences: Sentence[] = [];
  blocks.forEach((block, blockIndex) => {
    if (!isProse(block)) return;
    // A heading is one unit even without a full stop; body blocks are split.
    const spans = block.kind === 'heading' ? [{ start: 0, end: block.text.length }] : splitSentences(block.text);
    for (const sp of spans) {
      const text = block.text.slice(sp.start, sp.end);
      const tokens: Token[] = tokenize(text).map((t) => ({
        text: t.text,
        kind: t.kind,
        start: block.map[sp.start + t.start],
        end: block.map[sp.start + t.end - 1] + 1,
      }));
      if (tokens.length === 0) continue;
      sentences.push({ ...toOriginal(block, sp.start, sp.end), text, blockIndex, blockKind: block.kind, tokens });
    }
  });
  return { content, blocks, sentences };
}

/** Sentences of the body (headings excluded): what readability formulas read. */
export function bodySentences(doc: TextDocument): Sentence[] {
  return doc.sentences.filter((s) => s.blockKind !== 'heading');
}

/** Countable words of a sentence: URLs are links, not words. */
export function wordsOf(s: { tokens: Token[] }): Token[] {
  return s.tokens.filter((t) => t.kind !== 'url');
}

export function countWords(sentences: Array<{ tokens: Token[] }>): number {
  return sentences.reduce((n, s) => n + wordsOf(s).length, 0);
}

/** Convenience: split any string into sentence texts with offsets. */
export function sentencesOf(content: string): Array<Span & { text: string }> {
  return buildDocument(content).sentences.map(({ start, end, text }) => ({ start, end, text }));
}

export { parseMarkdown, splitSentences, tokenize };
export type { Block, BlockKind, Token };
