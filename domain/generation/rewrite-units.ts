/**
 * Cuts Markdown into the sentences a model may rephrase one at a time, and
 * puts the text back together with the rephrased ones.
 *
 * Only prose is offered: paragraph lines and list items. Headings, code,
 * tables, quotes, HTML and everything from a `## References` heading on stay
 * as they are, and so does any sentence with Markdown inside (links, code,
 * emphasis) or a citation marker anywhere but at its end. A sentence's
 * trailing markers (`... rates [2].`) are taken off before the model sees it
 * and put back before its final punctuation after, so a rewrite can neither
 * lose nor move a citation.
 */
import { splitSentences } from '../analysis/sentences';

export interface Unit {
  line: number;
  /** Span of the whole sentence (markers included) in its line. */
  start: number;
  end: number;
  /** The sentence without its citation markers, with its final punctuation. */
  text: string;
  /** The markers as they were (`[2]`, `[1][3]`), or '' when none. */
  markers: string;
}

export interface UnitDoc {
  lines: string[];
  units: Unit[];
}

const LIST_ITEM = /^(\s*(?:[-*+]|\d+[.)])\s+)/;
const SKIP_LINE = /^\s*(#|```|~~~|\||>|<|!\[|\[\^|---|\*\*\*)/;
const MARKDOWN_INSIDE = /[`*_<>]|\]\(|!\[/;
const TRAILING_MARKERS = /^(.*?)\s*((?:\[\d+\](?:,\s*)?)+)\s*([.!?]+["”’)]*)?\s*$/s;

/** A sentence we offer: starts like a sentence, ends with terminal punctuation, 4 to 60 words. */
function offerable(sentence: string): boolean {
  const words = sentence.split(/\s+/).filter(Boolean).length;
  return /^["“‘(]?[\p{Lu}\d]/u.test(sentence) && /[.!?]["”’)]*$/.test(sentence) && words >= 4 && words <= 60;
}

/** Sentence text and its trailing markers; undefined when a marker sits anywhere else. */
function splitMarkers(sentence: string): { text: string; markers: string } | undefined {
  if (!/\[\d+\]/.test(sentence)) return { text: sentence, markers: '' };
  const m = TRAILING_MARKERS.exec(sentence);
  if (!m || /\[\d+\]/.test(m[1])) return undefined;
  return { text: `${m[1].trimEnd()}${m[3] ?? '.'}`, markers: m[2].replace(/,\s*$/, '') };
}

export function rewriteUnits(markdown: string): UnitDoc {
  const lines = markdown.split('\n');
  const units: Unit[] = [];
  let fenced = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (/^#{1,6}\s+References\s*$/i.test(line)) break;
    if (fenced || !line.trim() || SKIP_LINE.test(line) || /^ {4}|\t/.test(line)) continue;
    const offset = LIST_ITEM.exec(line)?.[1].length ?? 0;
    const body = line.slice(offset);
    for (const span of splitSentences(body)) {
      const sentence = body.slice(span.start, span.end);
      if (MARKDOWN_INSIDE.test(sentence)) continue;
      const parts = splitMarkers(sentence);
      if (!parts || !offerable(parts.text)) continue;
      units.push({ line: i, start: offset + span.start, end: offset + span.end, ...parts });
    }
  }
  return { lines, units };
}

/** The sentence with its markers back before the final punctuation. */
export function withMarkers(text: string, markers: string): string {
  if (!markers) return text;
  const m = /^(.*?)([.!?]+["”’)]*)?$/s.exec(text.trim())!;
  return `${m[1]} ${markers}${m[2] ?? '.'}`;
}

/** The document with unit `k` replaced by `replacements.get(k)` (markers re-attached). */
export function assemble(doc: UnitDoc, replacements: ReadonlyMap<number, string>): string {
  const lines = [...doc.lines];
  // Right to left within a line, so earlier spans stay valid.
  const order = doc.units.map((u, k) => ({ u, k })).sort((a, b) => a.u.line - b.u.line || b.u.start - a.u.start);
  for (const { u, k } of order) {
    const text = replacements.get(k);
    if (text === undefined) continue;
    const line = lines[u.line];
    lines[u.line] = line.slice(0, u.start) + withMarkers(text, u.markers) + line.slice(u.end);
  }
  return lines.join('\n');
}
