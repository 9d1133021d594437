/**
 * The writer's own sentences: openers, key-point framings, elaborations and
 * closers, grouped by tone family so a "friendly" draft does not read like a
 * "formal" one. Slots: {subject} (what a key point is about), {topic},
 * {audience}, {keyword}. Every template starts with a word that is safe to
 * follow a connective, and none states a fact: facts come only from sources,
 * with a citation, so the writer never invents numbers.
 */
import { capitalize } from './text';
import { STOPWORDS } from '../analysis/stopwords';

export type ToneFamily = 'formal' | 'friendly' | 'persuasive' | 'neutral';

export function toneFamily(tone?: string): ToneFamily {
  const t = (tone ?? '').toLowerCase();
  if (/formal|professional|authoritative|academic|expert|technical|corporate/.test(t)) return 'formal';
  if (/casual|conversational|friendly|humou?r|playful|warm|approachable|fun/.test(t)) return 'friendly';
  if (/persuasive|bold|confident|inspir|motivat|sales|urgent|energetic/.test(t)) return 'persuasive';
  return 'neutral';
}

/** Audience as a plural noun phrase for "{audience}" slots. */
export function audienceOf(audience?: string): string {
  const a = (audience ?? '').trim().replace(/[.!]+$/, '');
  return a ? a.replace(/^(the|our)\s+/i, '') : 'readers';
}

// Verbs that open imperative key points ("Use long-tail keywords").
const IMPERATIVES = new Set(
  (
    'use build write create track measure choose plan publish avoid start focus add keep make test define map optimize optimise repurpose research identify ' +
    'set review update share post schedule know understand find pick target align improve earn pitch segment personalize personalise ' +
    'analyze analyse audit compare check craft design develop document ensure establish follow include invest launch learn limit list ' +
    'monitor prioritize prioritise promote refresh reuse run send structure study tailor turn write answer ask cite cover link match ' +
    'apply clean batch reply respond engage collect gather interview survey grow pair rewrite shorten simplify split stop treat vary'
  ).split(' '),
);
const FINITE =
  /\b(is|are|was|were|has|have|had|can|will|should|must|does|do|matters?|helps?|drives?|improves?|makes?|means|needs?|works?|beats?|wins?|gets?|leads?|shows?|depends?)\b/i;

export type PointKind = 'imperative' | 'statement' | 'noun';

/** How a key point is phrased decides which frames stay grammatical around it. */
export function pointKind(point: string): PointKind {
  const first = (/^[\p{L}]+/u.exec(point)?.[0] ?? '').toLowerCase();
  if (IMPERATIVES.has(first)) return 'imperative';
  if (FINITE.test(point) || point.split(/\s+/).length > 7) return 'statement';
  return 'noun';
}

/** "use" -> "using", "plan" -> "planning", "write" -> "writing": imperatives become noun phrases. */
export function gerund(verb: string): string {
  const v = verb.toLowerCase();
  if (/[^e]e$/.test(v) && v !== 'be') return `${v.slice(0, -1)}ing`;
  if (/^[^aeiou]*[aeiou][bdgmnprt]$/.test(v) && v.length <= 4) return `${v}${v.slice(-1)}ing`;
  return `${v}ing`;
}

/** The longest run of content words (at most three) in a sentence: "local search is the most valuable..." -> "local search". */
export function keyPhrase(sentence: string): string {
  const runs: string[][] = [[]];
  for (const w of sentence.split(/[\s,;:()]+/)) {
    const clean = w.replace(/[^\p{L}\p{N}'’-]/gu, '');
    if (clean.length > 2 && !STOPWORDS.has(clean.toLowerCase()) && !FINITE.test(clean))
      runs[runs.length - 1].push(clean);
    else runs.push([]);
  }
  const best = runs.map((r) => r.slice(0, 3)).sort((a, b) => b.length - a.length)[0];
  return best.length ? best.join(' ') : sentence;
}

/** What a heading is about, without its framing: "Why Keyword Research Matters" -> "Keyword Research". */
export function headingSubject(heading: string): string {
  const h = heading
    .trim()
    .replace(
      /^(what the research says about|practical steps for|understanding|getting|common|why|what|how|when|the|a|an)\s+/i,
      '',
    )
    .replace(/^(to|is|are)\s+/i, '')
    .replace(/\s+(matters?|works in practice|right|mistakes to avoid|explained)\b.*$/i, '')
    .replace(/\s+means for .*$/i, '')
    .replace(/[?:!.]+$/, '');
  return h || heading;
}

/** The noun phrase a point is about: "Use long-tail keywords" -> "using long-tail keywords". */
export function subjectOf(point: string): string {
  const p = point.trim().replace(/[.!?:;]+$/, '');
  if (pointKind(p) === 'statement') return keyPhrase(p);
  if (pointKind(p) !== 'imperative') return p;
  const [verb, ...rest] = p.split(/\s+/);
  return [gerund(verb), ...rest].join(' ');
}

type Table = Record<ToneFamily, string[]>;

export const LEADS: Table = {
  formal: [
    '{Subject} is a core part of {topic}, and it warrants a structured approach.',
    'Any serious treatment of {topic} has to address {subject}.',
    'For {audience}, {subject} is where strategy meets day-to-day execution.',
    'The research on {topic} returns repeatedly to {subject}.',
    '{Subject} deserves careful, structured attention.',
  ],
  friendly: [
    "Let's talk about {subject}, because it shapes almost everything else in {topic}.",
    "If you've ever wondered where to start with {topic}, {subject} is a great answer.",
    "Here's where {subject} comes in, and why it's worth your time.",
    'Good news: {subject} is easier to get right than it looks.',
    "Let's dig into {subject} together.",
  ],
  persuasive: [
    '{Subject} is where {audience} can pull ahead of the competition.',
    'Get {subject} right and the rest of {topic} becomes far easier.',
    'Few parts of {topic} pay off as quickly as {subject}.',
    'The teams that win at {topic} treat {subject} as a priority, not an afterthought.',
    'Strong results start with {subject}.',
  ],
  neutral: [
    '{Subject} is one of the building blocks of {topic}.',
    'This part looks at {subject} and how it fits into {topic}.',
    'To understand {topic}, it helps to look closely at {subject}.',
    '{Subject} connects directly to the goals of {topic}.',
    'This part looks at {subject} in practical terms.',
  ],
};

export const POINT_FRAMES: Record<'imperative' | 'statement' | 'noun', string[]> = {
  imperative: [
    '{Point}.',
    'The practical step is to {point}.',
    'Start with a clear rule: {point}.',
    'It pays to {point}.',
  ],
  statement: ['{Point}.', 'One point matters here: {Point}.', 'A key observation: {Point}.'],
  noun: [
    'Consider {subject} first.',
    '{Subject} deserves a closer look.',
    'Next comes {subject}.',
    'Then there is {subject}.',
  ],
};

export const ELABORATIONS: Table = {
  formal: [
    'For {audience}, the value of {subject} lies in how consistently it is applied.',
    'It is worth documenting how {subject} will be measured before the work begins.',
    'Treating {subject} as an ongoing process rather than a one-off task tends to produce more durable results.',
    'Clear ownership of {subject} prevents it from slipping between teams.',
    'A written standard for {subject} makes results comparable from one quarter to the next.',
    'Decisions about {subject} are best reviewed against the goals set for {topic}.',
    'The most reliable gains from {subject} come from small, repeated improvements.',
    'Each change to {subject} should be recorded so that its effect can be assessed later.',
  ],
  friendly: [
    "If you're juggling a lot at once, {subject} is a good place to focus your energy.",
    "Don't overthink {subject}; a simple routine you keep beats a perfect plan you never use.",
    'The nice thing about {subject} is that it gets easier every time you do it.',
    'Try one small change to {subject} this week and see what happens.',
    'Keep a short note of what you tried with {subject}, so next month is easier.',
    "You don't need fancy tools for {subject}; a spreadsheet and a little curiosity go a long way.",
    'Ask your audience what they think about {subject}; their answers are often surprising.',
    'Give {subject} a few weeks before judging it, since results rarely show up overnight.',
  ],
  persuasive: [
    '{Audience} who get {subject} right gain an edge that competitors struggle to copy.',
    'Skipping {subject} leaves results on the table.',
    'Every week without a plan for {subject} is a week of missed opportunities.',
    'Invest in {subject} now, and the payoff compounds over every piece you publish.',
    'The difference between average and outstanding {topic} often comes down to {subject}.',
    'Make {subject} a habit, and growth stops depending on luck.',
    'Commit to {subject} for one full quarter and judge it on the numbers.',
    'Strong {subject} turns occasional wins into a repeatable system.',
  ],
  neutral: [
    'In practice, {subject} works best when it is tied to a clear goal.',
    'A useful way to approach {subject} is to start small, measure, and adjust.',
    'Reviewing {subject} on a regular schedule keeps it aligned with what {audience} need.',
    'Simple checklists make {subject} easier to repeat across a team.',
    'The right level of effort for {subject} depends on the resources available and the goals in play.',
    'Tracking a few clear signals shows whether the work on {subject} is paying off.',
    'Changes to {subject} are easier to judge when they are made one at a time.',
    'Many of the benefits of {subject} only become visible over several months.',
  ],
};

export const AUDIENCE_LINKS: Table = {
  formal: [
    'For {audience}, this has direct consequences for planning and budgeting.',
    'The implication for {audience} is a need for clear priorities.',
  ],
  friendly: [
    'If you are one of the {audience} reading this, that is good news for you.',
    'For {audience}, that makes life a little simpler.',
  ],
  persuasive: ['For {audience}, that is an advantage worth claiming.', '{Audience} cannot afford to ignore this.'],
  neutral: ['For {audience}, this is worth keeping in mind.', 'This applies to {audience} of every size.'],
};

export const CLOSERS: Table = {
  formal: [
    'In short, {subject} rewards a deliberate, measured approach.',
    'Taken together, these points make {subject} a priority for {audience}.',
  ],
  friendly: [
    "That's the gist of {subject}: start simple and keep at it.",
    'So give {subject} a go, and adjust as you learn.',
  ],
  persuasive: [
    'Act on {subject} now, and the results will follow.',
    'Make {subject} a priority, and your {topic} will show it.',
  ],
  neutral: [
    'In short, {subject} is worth steady attention.',
    'These points together show why {subject} matters for {topic}.',
  ],
};

/** Transitions that open a later paragraph; they precede a template sentence only. */
export const TRANSITIONS: Table = {
  formal: ['Beyond that,', 'In addition,', 'Equally important,', 'On a related note,'],
  friendly: ['On top of that,', 'And here is another thing:', 'Also,', 'Now,'],
  persuasive: ['Better still,', 'Just as important,', 'Even more,', 'And crucially,'],
  neutral: ['In addition,', 'Beyond that,', 'Another consideration:', 'Also,'],
};

export interface Slots {
  subject: string;
  topic: string;
  audience: string;
  point?: string;
}

/** Fills a phrase's `{slot}` and `{Slot}` (capitalised) slots with the given words. */
export function fill(template: string, slots: Slots): string {
  return template.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const key = name.toLowerCase() as keyof Slots;
    const value = slots[key] ?? '';
    return name[0] === name[0].toUpperCase() ? capitalize(value) : value;
  });
}
