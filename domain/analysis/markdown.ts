/**
 * Line-based Markdown block parser (with the common HTML block tags).
 *
 * It is deliberately small: it recognises ATX and setext headings, one-line
 * HTML headings, paragraphs, list items (nested lists flattened), block
 * quotes, tables, horizontal rules and fenced code. Every block keeps its
 * plain text plus an offset map back to the original string, so later
 * findings can point at exact characters. Indented code blocks are treated
 * as paragraphs (documented approximation).
 */
import { MappedText, appendStripped } from './inline';
import { Span } from './types';

export type BlockKind = 'heading' | 'paragraph' | 'list_item' | 'blockquote' | 'code' | 'table';

export interface Block extends Span {
  kind: BlockKind;
  /** Heading level 1-6; 0 for other blocks. */
  level: number;
  /** Which list a list item belongs to (consecutive items share an id); -1 otherwise. */
  listId: number;
  /** Plain text (markup stripped) and its offset map into the original input. */
  text: string;
  map: number[];
}

interface Line extends Span {
  raw: string;
}

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const HTML_HEADING = /^\s*<h([1-6])\b[^>]*>(.*?)<\/h\1>\s*$/i;
const FENCE = /^ {0,3}(```|~~~)/;
const HR = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const LIST = /^(\s*)([-*+]|\d{1,9}[.)])[ \t]+/;
const HTML_LI = /^\s*<li\b[^>]*>/i;
const QUOTE = /^ {0,3}>[ \t]?/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;

function splitLines(src: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (let i = 0; i <= src.length; i++) {
    if (i === src.length || src[i] === '\n') {
      let end = i;
      if (end > start && src[end - 1] === '\r') end--;
      lines.push({ start, end, raw: src.slice(start, end) });
      start = i + 1;
    }
  }
  return lines;
}

export function parseMarkdown(src: string): Block[] {
  const blocks: Block[] = [];
  let open: Block | null = null; // block that may take continuation lines
  let fence: { marker: string; block: Block } | null = null;
  let listId = -1;
  let lastWasList = false;

  const newBlock = (kind: BlockKind, line: Line, level = 0): Block => {
    const b: Block = { kind, level, listId: -1, start: line.start, end: line.end, text: '', map: [] };
    blocks.push(b);
    return b;
  };
  const addText = (b: Block, line: Line, contentOffset: number): void => {
    const out: MappedText = { text: b.text, map: b.map };
    if (out.text.length > 0) {
      out.text += ' '; // the line break reads as a space
      out.map.push(line.start - 1);
    }
    appendStripped(line.raw.slice(contentOffset), line.start + contentOffset, out);
    b.text = out.text;
    b.map = out.map;
    b.end = line.end;
  };

  for (const line of splitLines(src)) {
    const raw = line.raw;
    if (fence) {
      fence.block.end = line.end;
      if (raw.trimStart().startsWith(fence.marker)) fence = null;
      continue;
    }
    if (raw.trim() === '') {
      open = null;
      continue;
    }
    let m: RegExpExecArray | null;
    if ((m = FENCE.exec(raw))) {
      fence = { marker: m[1], block: newBlock('code', line) };
      open = null;
      lastWasList = false;
      continue;
    }
    if (open && open.kind === 'paragraph' && (m = SETEXT.exec(raw))) {
      // "Title\n=====" turns the paragraph above into a heading
      open.kind = 'heading';
      open.level = m[1][0] === '=' ? 1 : 2;
      open.end = line.end;
      open = null;
      continue;
    }
    if (HR.test(raw)) {
      open = null;
      continue;
    }
    const isList = LIST.test(raw) || HTML_LI.test(raw);
    if (!isList && lastWasList && open === null) lastWasList = false;
    if ((m = ATX.exec(raw))) {
      const b = newBlock('heading', line, m[1].length);
      const contentStart = m[2] === undefined ? raw.length : raw.indexOf(m[2], m[1].length);
      addText(b, { ...line, raw: raw.slice(0, contentStart + (m[2]?.length ?? 0)) }, contentStart);
      b.end = line.end;
      open = null;
      lastWasList = false;
    } else if ((m = HTML_HEADING.exec(raw))) {
      const b = newBlock('heading', line, Number(m[1]));
      addText(b, line, 0);
      open = null;
      lastWasList = false;
    } else if (isList) {
      if (!lastWasList) listId++;
      const b = newBlock('list_item', line);
      b.listId = listId;
      const marker = LIST.exec(raw);
      addText(b, line, marker ? marker[0].length : 0);
      open = b;
      lastWasList = true;
    } else if ((m = QUOTE.exec(raw))) {
      if (open && open.kind === 'blockquote') addText(open, line, m[0].length);
      else addText((open = newBlock('blockquote', line)), line, m[0].length);
      lastWasList = false;
    } else if (raw.trimStart().startsWith('|')) {
      if (!(open && open.kind === 'table')) open = newBlock('table', line);
      open.end = line.end;
      lastWasList = false;
    } else if (open && open.kind !== 'table') {
      addText(open, line, 0); // lazy continuation of a paragraph, item or quote
    } else {
      addText((open = newBlock('paragraph', line)), line, 0);
      lastWasList = false;
    }
  }
  // Blocks whose text is only markup (an image on its own line) carry no prose.
  return blocks.filter((b) => b.kind === 'code' || b.kind === 'table' || b.text.trim().length > 0);
}

/** Blocks whose text is read as prose (headings included). */
export function isProse(b: Block): boolean {
  return b.kind !== 'code' && b.kind !== 'table';
}
