/**
 * Outline refine operations as pure transformations: each takes the
 * outline and returns a new one (the input is never mutated) plus a
 * human-readable line for `improvements_made`.
 *
 * Payloads (documented in docs/analysis.md):
 *  add      payload.section {heading, ...}; optional payload.position (index)
 *           or section_id (insert after it); default: append
 *  remove   section_id
 *  move     section_id; payload.to_index or payload.after_section_id
 *  merge    section_id; payload.with_section_id (default: the next section);
 *           optional payload.heading
 *  split    section_id; optional payload.parts (2-10, default 2), payload.headings
 *  rename   section_id; payload.heading
 *  reorder  payload.order: every section id exactly once
 */
import { AnalysisInputError } from './errors';
import { OutlineSection, Source } from './types';
import { indexOfSection } from './outline-validate';
import { largestRemainder } from './outline-rebalance';

export type RefineOperation = 'add' | 'remove' | 'move' | 'merge' | 'split' | 'rename' | 'reorder';
export const REFINE_OPERATIONS: readonly RefineOperation[] = [
  'add',
  'remove',
  'move',
  'merge',
  'split',
  'rename',
  'reorder',
];

export type RefinePayload = Record<string, unknown>;

export interface OpResult {
  outline: OutlineSection[];
  change: string;
}

const str = (v: unknown, field: string): string => {
  if (typeof v !== 'string' || v.trim() === '')
    throw new AnalysisInputError(field, `${field} must be a non-empty string`);
  return v.trim();
};

const intIn = (v: unknown, field: string, min: number, max: number): number => {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
    throw new AnalysisInputError(field, `${field} must be an integer from ${min} to ${max}`);
  return v;
};

function uniqueId(outline: OutlineSection[], base: string): string {
  const ids = new Set(outline.map((s) => s.id));
  if (!ids.has(base)) return base;
  let n = 2;
  while (ids.has(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}

const union = <T>(a: T[] = [], b: T[] = [], key: (x: T) => string = String): T[] => {
  const seen = new Set<string>();
  return [...a, ...b].filter((x) => !seen.has(key(x)) && (seen.add(key(x)), true));
};

function add(outline: OutlineSection[], sectionId: string | undefined, p: RefinePayload): OpResult {
  const raw = (p.section ?? {}) as Partial<OutlineSection>;
  const heading = str(raw.heading ?? p.heading, 'payload.section.heading');
  const id = uniqueId(outline, typeof raw.id === 'string' && raw.id ? raw.id : `section-${outline.length + 1}`);
  const section: OutlineSection = {
    subheadings: [],
    key_points: [],
    references: [],
    keywords: [],
    ...raw,
    id,
    heading,
  };
  let at = outline.length;
  if (sectionId !== undefined) at = indexOfSection(outline, sectionId) + 1;
  else if (p.position !== undefined) at = intIn(p.position, 'payload.position', 0, outline.length);
  const next = [...outline.slice(0, at), section, ...outline.slice(at)];
  return { outline: next, change: `Added section "${heading}" (${id}) at position ${at + 1}.` };
}

function remove(outline: OutlineSection[], sectionId: string | undefined): OpResult {
  const i = indexOfSection(outline, sectionId);
  return {
    outline: outline.filter((_, k) => k !== i),
    change: `Removed section "${outline[i].heading}" (${outline[i].id}).`,
  };
}

function move(outline: OutlineSection[], sectionId: string | undefined, p: RefinePayload): OpResult {
  const i = indexOfSection(outline, sectionId);
  const rest = outline.filter((_, k) => k !== i);
  let to: number;
  if (p.after_section_id !== undefined) to = indexOfSection(rest, p.after_section_id, 'payload.after_section_id') + 1;
  else to = intIn(p.to_index, 'payload.to_index', 0, rest.length);
  const next = [...rest.slice(0, to), outline[i], ...rest.slice(to)];
  return { outline: next, change: `Moved section "${outline[i].heading}" (${outline[i].id}) to position ${to + 1}.` };
}

function merge(outline: OutlineSection[], sectionId: string | undefined, p: RefinePayload): OpResult {
  const i = indexOfSection(outline, sectionId);
  const j =
    p.with_section_id !== undefined ? indexOfSection(outline, p.with_section_id, 'payload.with_section_id') : i + 1;
  if (j >= outline.length || j === i)
    throw new AnalysisInputError('payload.with_section_id', 'merge needs a different section to merge with');
  const [a, b] = i < j ? [outline[i], outline[j]] : [outline[j], outline[i]];
  const merged: OutlineSection = {
    ...a,
    heading: p.heading !== undefined ? str(p.heading, 'payload.heading') : a.heading,
    subheadings: union(a.subheadings, [b.heading, ...(b.subheadings ?? [])]),
    key_points: union(a.key_points, b.key_points),
    references: union<Source>(a.references, b.references, (r) => r.url ?? r.title),
    keywords: union(a.keywords, b.keywords, (k) => k.toLowerCase()),
    ...(a.target_words !== undefined || b.target_words !== undefined
      ? { target_words: (a.target_words ?? 0) + (b.target_words ?? 0) }
      : {}),
  };
  const first = Math.min(i, j);
  const next = outline.flatMap((s, k) => (k === first ? [merged] : k === i || k === j ? [] : [s]));
  return { outline: next, change: `Merged "${b.heading}" (${b.id}) into "${merged.heading}" (${a.id}).` };
}

const chunk = <T>(xs: T[] = [], n: number): T[][] => {
  const sizes = largestRemainder(xs.length, Array(n).fill(1));
  let at = 0;
  return sizes.map((k) => xs.slice(at, (at += k)));
};

function split(outline: OutlineSection[], sectionId: string | undefined, p: RefinePayload): OpResult {
  const i = indexOfSection(outline, sectionId);
  const s = outline[i];
  const headings = Array.isArray(p.headings) ? p.headings.map((h, k) => str(h, `payload.headings[${k}]`)) : null;
  const parts = p.parts !== undefined ? intIn(p.parts, 'payload.parts', 2, 10) : (headings?.length ?? 2);
  if (headings && headings.length !== parts)
    throw new AnalysisInputError('payload.headings', 'payload.headings must have one heading per part');
  const subs = chunk(s.subheadings, parts);
  const points = chunk(s.key_points, parts);
  const words = s.target_words !== undefined ? largestRemainder(s.target_words, Array(parts).fill(1)) : null;
  const taken = outline.filter((_, k) => k !== i);
  const pieces: OutlineSection[] = [];
  for (let k = 0; k < parts; k++) {
    const id = uniqueId([...taken, ...pieces], `${s.id}-${k + 1}`);
    pieces.push({
      ...s,
      id,
      heading: headings?.[k] ?? subs[k][0] ?? `${s.heading} (part ${k + 1})`,
      subheadings: subs[k],
      key_points: points[k],
      ...(words ? { target_words: words[k] } : {}),
    });
  }
  const next = [...outline.slice(0, i), ...pieces, ...outline.slice(i + 1)];
  return {
    outline: next,
    change: `Split "${s.heading}" (${s.id}) into ${parts} sections: ${pieces.map((x) => x.id).join(', ')}.`,
  };
}

function rename(outline: OutlineSection[], sectionId: string | undefined, p: RefinePayload): OpResult {
  const i = indexOfSection(outline, sectionId);
  const heading = str(p.heading, 'payload.heading');
  const next = outline.map((s, k) => (k === i ? { ...s, heading } : s));
  return { outline: next, change: `Renamed "${outline[i].heading}" (${outline[i].id}) to "${heading}".` };
}

function reorder(outline: OutlineSection[], p: RefinePayload): OpResult {
  const order = p.order;
  if (!Array.isArray(order))
    throw new AnalysisInputError('payload.order', 'payload.order must be an array of section ids');
  const ids = outline.map((s) => s.id);
  const unique = new Set(order);
  if (order.length !== ids.length || unique.size !== ids.length || !ids.every((id) => unique.has(id))) {
    throw new AnalysisInputError('payload.order', 'payload.order must list every section id exactly once');
  }
  const byId = new Map(outline.map((s) => [s.id, s]));
  return { outline: order.map((id) => byId.get(id as string)!), change: `Reordered sections: ${order.join(', ')}.` };
}

export function applyOperation(
  outline: OutlineSection[],
  operation: string,
  sectionId: string | undefined,
  payload: RefinePayload = {},
): OpResult {
  switch (operation) {
    case 'add':
      return add(outline, sectionId, payload);
    case 'remove':
      return remove(outline, sectionId);
    case 'move':
      return move(outline, sectionId, payload);
    case 'merge':
      return merge(outline, sectionId, payload);
    case 'split':
      return split(outline, sectionId, payload);
    case 'rename':
      return rename(outline, sectionId, payload);
    case 'reorder':
      return reorder(outline, payload);
    default:
      throw new AnalysisInputError(
        'operation',
        `unknown operation "${operation}"; expected one of ${REFINE_OPERATIONS.join(', ')}`,
      );
  }
}
