/**
 * writeSection: one Markdown section of the offline writer.
 *
 * How it works (and why it meets a word target):
 * 1. A plan is laid out first: an opening paragraph, one paragraph (or one
 *    list item) per key point, optional `###` subheadings, a closing line.
 *    Each slot holds *units*: mandatory sentences (the opener, the framing of
 *    each key point) and candidate sentences, tagged with a round: source
 *    evidence first, then elaborations, more evidence, audience links.
 * 2. Candidates are accepted round by round while the body stays under
 *    target + 3 %, skipping any that would overshoot, until it reaches
 *    target − 3 %. Sentences are 6–30 words, so the last gap can nearly
 *    always be filled by a shorter one. If inputs run dry, elaborations over
 *    the key points and keywords fill the rest.
 * 3. Accepted units are rendered in plan order, so the reading order never
 *    depends on the order in which sentences were accepted.
 * Every choice between equivalent templates is made by a hash of the input:
 * the same request gives the same text, on any machine, with no clock or
 * random number involved.
 */
import type { SectionDraft, Source, WriteSectionInput } from './types';
import {
  buildEvidencePool,
  bestEvidence,
  EvidenceSentence,
  EvidencePool,
  frameEvidence,
  numberSources,
  NumberedSource,
} from './evidence';
import {
  headingSubject,
  AUDIENCE_LINKS,
  CLOSERS,
  ELABORATIONS,
  fill,
  LEADS,
  POINT_FRAMES,
  pointKind,
  subjectOf,
  audienceOf,
  toneFamily,
  TRANSITIONS,
  Slots,
  ToneFamily,
} from './phrases';
import { hash32, lowerPhrase, markdownWordCount, pick, properNouns, rotate, safeLower, wordsIn } from './text';

/** State shared by the sections of one article: sources, their numbers, what has been used and cited. */
export interface WriterContext {
  numbered: NumberedSource[];
  pool: EvidencePool;
  proper: Set<string>;
  cited: Map<number, Source>;
}

export function createWriterContext(sources: Source[] = []): WriterContext {
  const numbered = numberSources(sources);
  return {
    numbered,
    pool: buildEvidencePool(numbered),
    proper: properNouns(sources.map((s) => s.excerpt ?? '')),
    cited: new Map(),
  };
}

type BlockKind = 'p' | 'li' | 'h3';
interface Block {
  kind: BlockKind;
  text?: string;
  /** Key point the block belongs to (-1 none): dropped together when the target is too small. */
  point: number;
}
interface Unit {
  block: number;
  order: number;
  text: string;
  words: number;
  point: number;
  evidence?: EvidenceSentence;
  round: number;
}

const LISTY =
  /\b(tips|steps|ways|checklist|mistakes|practices|ideas|tools|takeaways|strategies|signs|tactics|rules|questions|examples|lessons)\b|^how to\b/i;

interface Plan {
  blocks: Block[];
  mandatory: Unit[];
  candidates: Unit[];
  subjects: string[];
  fillerBlocks: number[];
}

function planSection(input: WriteSectionInput, ctx: WriterContext, family: ToneFamily, seed: string): Plan {
  const proper = ctx.proper;
  const audience = audienceOf(input.audience);
  const topic = lowerPhrase(input.topic || headingSubject(input.heading), proper);
  const rawPoints =
    (input.keyPoints?.length
      ? input.keyPoints
      : input.subheadings?.length
        ? input.subheadings
        : input.keywords?.slice(0, 3)) ?? [];
  const points = rawPoints.map((p) => p.trim().replace(/[.;:]+$/, '')).filter(Boolean);
  if (points.length === 0) points.push(input.heading.trim());
  const subjects = points.map((p) => lowerPhrase(subjectOf(p), proper));
  for (const k of input.keywords ?? []) if (k.trim() && !subjects.includes(k.trim())) subjects.push(k.trim());
  const slots = (subject: string, point?: string): Slots => ({ subject, topic, audience, point });
  const queryBase = `${input.heading} ${(input.keywords ?? []).join(' ')}`;
  const avgPointWords = points.reduce((n, p) => n + wordsIn(p), 0) / points.length;
  const listMode =
    input.list ?? (points.length >= 3 && avgPointWords <= 9 && (LISTY.test(input.heading) || hash32(seed) % 4 === 0));

  const blocks: Block[] = [];
  const mandatory: Unit[] = [];
  const candidates: Unit[] = [];
  const taken = new Set<string>();
  const add = (
    list: Unit[],
    block: number,
    order: number,
    text: string,
    round: number,
    point: number,
    evidence?: EvidenceSentence,
  ) => list.push({ block, order, text, words: wordsIn(text), round, point, evidence });
  const evidenceFor = (query: string, k: number): EvidenceSentence[] => {
    const found = bestEvidence(ctx.pool, query, k + taken.size)
      .filter((e) => !taken.has(e.id))
      .slice(0, k);
    found.forEach((e) => taken.add(e.id));
    return found;
  };
  const frame = (e: EvidenceSentence) => frameEvidence(e, seed, proper);

  // Opening paragraph: a lead sentence about the section, then its best evidence.
  const intro = blocks.push({ kind: 'p', point: -1 }) - 1;
  const leadSubject = lowerPhrase(headingSubject(input.heading), proper);
  // A lead that names both subject and topic reads oddly when they are the same thing.
  const sameAsTopic =
    leadSubject.toLowerCase().includes(topic.toLowerCase()) || topic.toLowerCase().includes(leadSubject.toLowerCase());
  const leads = LEADS[family].filter((t) => !sameAsTopic || !t.includes('{topic}'));
  add(mandatory, intro, 0, fill(pick(leads, `${seed}|lead`), slots(leadSubject)), 0, -1);
  evidenceFor(queryBase, 2).forEach((e, i) => add(candidates, intro, 1 + i, frame(e), i === 0 ? 1 : 3, -1, e));
  add(candidates, intro, 5, fill(pick(AUDIENCE_LINKS[family], `${seed}|aud`), slots(leadSubject)), 4, -1);

  const elaborations = rotate(ELABORATIONS[family], `${seed}|elab`);
  let elabNext = 0;
  const nextElaboration = (subject: string, k: number, transition: boolean): string => {
    const t = elaborations[elabNext++ % elaborations.length];
    const s = fill(t, slots(subject));
    if (!transition || t.startsWith('{')) return s;
    return `${pick(TRANSITIONS[family], `${seed}|tr|${k}`)} ${safeLower(s, proper)}`;
  };

  const groups =
    !listMode && input.subheadings?.length && points.length >= 2 && input.targetWords >= 250
      ? input.subheadings.slice(0, points.length)
      : [];
  let afterList = -1;
  points.forEach((point, k) => {
    const subject = subjects[k];
    const query = `${point} ${queryBase}`;
    const ev = evidenceFor(query, 3);
    // One subheading per key point when the counts match, else subheadings over groups of points.
    const per = groups.length === points.length ? 1 : Math.ceil(points.length / Math.max(1, groups.length));
    if (groups.length && k % per === 0) blocks.push({ kind: 'h3', text: groups[Math.floor(k / per)], point: k });
    const kind = pointKind(point);
    if (listMode) {
      const li = blocks.push({ kind: 'li', point: k }) - 1;
      add(mandatory, li, 0, `**${point}.**`, 0, k);
      if (ev[0]) add(candidates, li, 1, frame(ev[0]), 1, k, ev[0]);
      add(candidates, li, 2, nextElaboration(subject, k, false), 2, k);
      if (afterList < 0) afterList = blocks.push({ kind: 'p', point: -1 }) - 1; // the paragraph that follows the list: made here, moved behind the last item below
      ev.slice(1).forEach((e, i) => add(candidates, afterList, 10 * k + i, frame(e), 3 + 2 * i, k, e));
    } else {
      const p = blocks.push({ kind: 'p', point: k }) - 1;
      const framing = pick(POINT_FRAMES[kind], `${seed}|pf|${k}`);
      const pointText = kind === 'imperative' ? safeLower(point, proper) : point;
      add(mandatory, p, 0, fill(framing, slots(subject, pointText)), 0, k);
      ev.forEach((e, i) => add(candidates, p, 1 + 2 * i, frame(e), 1 + 2 * i, k, e));
      add(candidates, p, 2, nextElaboration(subject, k, k > 0), 2, k);
      add(candidates, p, 6, fill(pick(AUDIENCE_LINKS[family], `${seed}|aud|${k}`), slots(subject)), 4 + k, k);
      add(candidates, p, 4, nextElaboration(subject, k, false), 6, k);
    }
  });
  if (afterList >= 0) {
    // The discussion paragraph of a list reads after the list, not inside it.
    const [moved] = blocks.splice(afterList, 1);
    blocks.push(moved);
    const newIndex = blocks.length - 1;
    for (const u of [...mandatory, ...candidates]) {
      if (u.block === afterList) u.block = newIndex;
      else if (u.block > afterList) u.block -= 1;
    }
    afterList = newIndex;
  }
  const closing = blocks.push({ kind: 'p', point: -2 }) - 1;
  const closer = fill(pick(CLOSERS[family], `${seed}|close`), slots(leadSubject));
  add(input.targetWords >= 100 ? mandatory : candidates, closing, 0, closer, 2, -2);

  const fillerBlocks = listMode
    ? [afterList]
    : blocks.map((b, i) => (b.kind === 'p' && b.point >= 0 ? i : -1)).filter((i) => i >= 0);
  return { blocks, mandatory, candidates, subjects, fillerBlocks };
}

/**
 * Elaborations beyond the plan, for long targets with few inputs: each
 * subject gets every template once, in a subject-specific order, and the
 * subjects take turns, so neighbouring sentences differ in both.
 */
function* fillers(
  plan: Plan,
  family: ToneFamily,
  input: WriteSectionInput,
  ctx: WriterContext,
  seed: string,
): Generator<Unit> {
  const topic = lowerPhrase(input.topic || headingSubject(input.heading), ctx.proper);
  const audience = audienceOf(input.audience);
  const families: ToneFamily[] = [
    family,
    ...(['neutral', 'formal', 'friendly', 'persuasive'] as ToneFamily[]).filter((f) => f !== family),
  ];
  const templates = families.flatMap((f) => rotate(ELABORATIONS[f], `${seed}|fill|${f}`));
  const S = plan.subjects.length;
  // The paragraph of a subject's own key point when it has one, else the filler blocks in turn.
  const home = (s: number) =>
    plan.fillerBlocks.find((b) => plan.blocks[b].point === s) ?? plan.fillerBlocks[s % plan.fillerBlocks.length];
  let n = 0;
  for (let r = 0; r < templates.length; r++) {
    for (let s = 0; s < S; s++) {
      const text = fill(templates[(r + 3 * s) % templates.length], { subject: plan.subjects[s], topic, audience });
      const block = home(s);
      yield { block, order: 100 + n++, text, words: wordsIn(text), round: 99, point: plan.blocks[block].point };
    }
  }
}

function render(blocks: Block[], units: Unit[]): string {
  const out: string[] = [];
  let prev: BlockKind | undefined;
  blocks.forEach((b, i) => {
    if (b.kind === 'h3') {
      if (!units.some((u) => blocks[u.block].point === b.point && blocks[u.block].kind !== 'h3')) return; // its key point was dropped
      out.push(`${prev ? '\n\n' : ''}### ${b.text}`);
      prev = 'h3';
      return;
    }
    const sentences = units
      .filter((u) => u.block === i)
      .sort((a, c) => a.order - c.order)
      .map((u) => u.text);
    if (sentences.length === 0) return;
    if (b.kind === 'li') {
      out.push(`${prev === 'li' ? '\n' : prev ? '\n\n' : ''}- ${sentences.join(' ')}`);
    } else {
      // Long runs are split so no paragraph grows past five sentences.
      for (let s = 0; s < sentences.length; s += 5) {
        out.push(`${prev ? '\n\n' : ''}${sentences.slice(s, s + 5).join(' ')}`);
        prev = 'p';
      }
    }
    prev = b.kind;
  });
  return out.join('');
}

/** Writes one section body (no `##` heading) of about `targetWords` words; see the module comment. */
export function writeSection(input: WriteSectionInput, shared?: WriterContext): SectionDraft {
  const ctx = shared ?? createWriterContext(input.sources ?? []);
  const target = Math.max(1, Math.round(input.targetWords));
  const family = toneFamily(input.tone);
  const seed = `${input.heading}|${(input.keyPoints ?? []).join(';')}|${(input.keywords ?? []).join(';')}|${input.tone ?? ''}|${input.audience ?? ''}`;
  const plan = planSection(input, ctx, family, seed);
  const lo = target * 0.97;
  const hi = target * 1.03;

  let units = [...plan.mandatory];
  let total = units.reduce((n, u) => n + u.words, 0);
  // Too many key points for a short target: keep the first ones whole rather than all of them half-written.
  const dropped = new Set<number>();
  for (let k = Math.max(...plan.blocks.map((b) => b.point)); total > hi && k > 0; k--) {
    dropped.add(k);
    units = units.filter((u) => u.point !== k);
    plan.candidates = plan.candidates.filter((u) => u.point !== k);
    total = units.reduce((n, u) => n + u.words, 0);
  }
  if (total > hi) units = units.filter((u) => u.point !== -2);
  total = units.reduce((n, u) => n + u.words, 0);
  plan.fillerBlocks = plan.fillerBlocks.filter((b) => !dropped.has(plan.blocks[b].point));

  const accept = (u: Unit, limit: number): boolean => {
    if (total >= lo || total + u.words > limit) return false;
    if (units.some((x) => x.text === u.text)) return false;
    units.push(u);
    total += u.words;
    return true;
  };
  const ordered = [...plan.candidates].sort((a, b) => a.round - b.round || a.block - b.block || a.order - b.order);
  for (const u of ordered) accept(u, hi);
  if (total < lo && plan.fillerBlocks.length)
    for (const u of fillers(plan, family, input, ctx, seed)) if (accept(u, hi) && total >= lo) break;
  if (total < target * 0.9) for (const u of ordered) accept(u, target * 1.1);

  const citations = new Map<number, Source>();
  for (const u of units) {
    if (!u.evidence) continue;
    ctx.pool.used.add(u.evidence.id);
    const src = ctx.numbered.find((s) => s.n === u.evidence!.n)!;
    citations.set(src.n, { ...src.source, index: src.n });
    ctx.cited.set(src.n, { ...src.source, index: src.n });
  }
  const markdown = render(plan.blocks, units);
  return {
    heading: input.heading,
    markdown,
    wordCount: markdownWordCount(markdown),
    citations: [...citations.values()].sort((a, b) => (a.index as number) - (b.index as number)),
  };
}
