/**
 * Flow analysis of a sectioned blog post: bodies of POST
 * /api/blog/flow-analysis/basic and /advanced (without `success` and
 * `processing_time_ms`). Metric definitions live in flow-metrics.ts.
 */
import { AnalysisInputError } from './errors';
import { parseMarkdown } from './markdown';
import { BoundaryMetrics, FlowSectionInput, SectionMetrics, computeFlow, crossSection } from './flow-metrics';
import { mean } from './vectors';

export interface FlowInput {
  content?: string;
  sections?: FlowSectionInput[];
  target_audience?: string;
  tone?: string;
}

export interface FlowDimension {
  score: number;
  issues: string[];
  suggestions: string[];
}

export interface BasicFlowResult {
  overall_flow_score: number;
  section_flow_scores: Record<string, number>;
  flow_analysis: { transitions: FlowDimension; coherence: FlowDimension; engagement: FlowDimension };
  recommendations: string[];
  analysis_type: 'basic';
}

export interface SectionDetail {
  flow_score: number;
  readability_score: number;
  engagement_score: number;
  coherence_score: number;
  transition_score: number;
  issues: string[];
  strengths: string[];
  suggestions: string[];
}

export interface AdvancedFlowResult {
  overall_flow_score: number;
  detailed_section_analysis: Record<string, SectionDetail>;
  cross_section_analysis: {
    overall_coherence: number;
    transition_quality: number;
    thematic_consistency: number;
    progression_logic: number;
  };
  recommendations: string[];
  analysis_type: 'advanced';
}

const WEAK = 50;

/** Sections as given, or cut from `content` at its headings when none are given. */
export function resolveSections(input: FlowInput): FlowSectionInput[] {
  const given = input.sections ?? [];
  if (given.length > 0) {
    const ids = new Set<string>();
    given.forEach((s, i) => {
      if (typeof s?.id !== 'string' || s.id === '')
        throw new AnalysisInputError(`sections[${i}].id`, 'each section needs a non-empty string id');
      if (ids.has(s.id)) throw new AnalysisInputError(`sections[${i}].id`, `duplicate section id "${s.id}"`);
      ids.add(s.id);
    });
    return given.map((s) => ({ ...s, heading: s.heading ?? '', content: s.content ?? '' }));
  }
  const content = input.content ?? '';
  const headings = parseMarkdown(content).filter((b) => b.kind === 'heading');
  if (headings.length === 0) return content.trim() ? [{ id: 'section-1', heading: '', content }] : [];
  const out: FlowSectionInput[] = [];
  if (content.slice(0, headings[0].start).trim())
    out.push({ id: 'intro', heading: 'Introduction', content: content.slice(0, headings[0].start) });
  headings.forEach((h, i) => {
    out.push({
      id: `section-${i + 1}`,
      heading: h.text.trim(),
      content: content.slice(h.end, headings[i + 1]?.start ?? content.length),
    });
  });
  return out;
}

const name = (m: { id: string; heading: string }): string =>
  m.heading ? `"${m.heading}" (${m.id})` : `section ${m.id}`;
const pct = (x: number): string => `${Math.round(x * 100)}%`;

function transitionNotes(b: BoundaryMetrics, byId: Map<string, SectionMetrics>): { issue: string; suggestion: string } {
  const a = byId.get(b.from)!;
  const c = byId.get(b.to)!;
  const hook = a.topWords[0] ? `reuse "${a.topWords[0]}" or ` : '';
  return {
    issue: `Abrupt transition from ${name(a)} to ${name(c)}: only ${pct(b.overlap)} shared key terms${b.transitionWord ? '' : ' and no transition word'}.`,
    suggestion: `Open ${name(c)} with a bridging sentence that refers back to ${name(a)}: ${hook}start with a phrase such as "Building on this," or "As a result,".`,
  };
}

function coherenceNotes(m: SectionMetrics, mainTerms: string[]): { issue: string; suggestion: string } {
  return {
    issue: `${name(m)} drifts from the article's main topic (similarity ${m.similarity.toFixed(2)}).`,
    suggestion: `Tie ${name(m)} back to the main thread by connecting it to ${mainTerms.map((t) => `"${t}"`).join(', ') || 'the central topic'}, or move it to a separate post.`,
  };
}

function engagementNotes(m: SectionMetrics): Array<{ issue: string; suggestion: string }> {
  const p = m.engagementParts;
  const out: Array<{ issue: string; suggestion: string }> = [];
  if (p.questions === 0)
    out.push({
      issue: `${name(m)} asks the reader no questions.`,
      suggestion: `Add a question to ${name(m)} that the section then answers.`,
    });
  if (p.you_per_100 < 0.5)
    out.push({
      issue: `${name(m)} never addresses the reader directly.`,
      suggestion: `Address the reader as "you" in ${name(m)}, e.g. in an example or instruction.`,
    });
  if (p.length_stdev < 3)
    out.push({
      issue: `Sentences in ${name(m)} all have similar length (spread ${p.length_stdev.toFixed(1)} words).`,
      suggestion: `Mix short punchy sentences with longer ones in ${name(m)}.`,
    });
  if (p.numbers_per_100 === 0)
    out.push({
      issue: `${name(m)} contains no concrete numbers.`,
      suggestion: `Support ${name(m)} with a specific figure, date or example count.`,
    });
  return out;
}

function mainTermsOf(metrics: SectionMetrics[]): string[] {
  const freq = new Map<string, number>();
  for (const m of metrics) for (const w of m.topWords) freq.set(w, (freq.get(w) ?? 0) + 1);
  return [...freq.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 3)
    .map(([w]) => w);
}

export function analyzeFlowBasic(input: FlowInput): BasicFlowResult {
  const { sections, boundaries } = computeFlow(resolveSections(input));
  const byId = new Map(sections.map((s) => [s.id, s]));
  const main = mainTermsOf(sections);
  const weakB = boundaries.filter((b) => b.score < WEAK).map((b) => transitionNotes(b, byId));
  const weakC = sections.filter((s) => s.coherence < 40).map((s) => coherenceNotes(s, main));
  const weakE = sections.filter((s) => s.engagement < 40).flatMap(engagementNotes);
  const dim = (score: number, notes: Array<{ issue: string; suggestion: string }>): FlowDimension => ({
    score: Math.round(score),
    issues: notes.map((n) => n.issue),
    suggestions: [...new Set(notes.map((n) => n.suggestion))],
  });
  const flow_analysis = {
    transitions: dim(boundaries.length ? mean(boundaries.map((b) => b.score)) : 100, weakB),
    coherence: dim(mean(sections.map((s) => s.coherence)), weakC),
    engagement: dim(mean(sections.map((s) => s.engagement)), weakE),
  };
  return {
    overall_flow_score: Math.round(mean(sections.map((s) => s.flow))),
    section_flow_scores: Object.fromEntries(sections.map((s) => [s.id, s.flow])),
    flow_analysis,
    recommendations: recommendations(
      sections,
      [...weakB, ...weakC, ...weakE].map((n) => n.suggestion),
    ),
    analysis_type: 'basic',
  };
}

function recommendations(sections: SectionMetrics[], suggestions: string[]): string[] {
  if (sections.length === 0) return ['Provide content or sections to analyse.'];
  const out = [...new Set(suggestions)].slice(0, 8);
  return out.length ? out : ['The flow is strong; no structural changes are needed.'];
}

export function analyzeFlowAdvanced(input: FlowInput & { detailed_analysis?: boolean }): AdvancedFlowResult {
  const { sections, boundaries } = computeFlow(resolveSections(input));
  const byId = new Map(sections.map((s) => [s.id, s]));
  const main = mainTermsOf(sections);
  const limit = input.detailed_analysis === false ? 2 : Infinity;
  const all: string[] = [];
  const detailed: Record<string, SectionDetail> = {};
  for (const m of sections) {
    const notes = [
      ...boundaries.filter((b) => b.to === m.id && b.score < WEAK).map((b) => transitionNotes(b, byId)),
      ...(m.coherence < 40 ? [coherenceNotes(m, main)] : []),
      ...(m.engagement < 40 ? engagementNotes(m) : []),
    ];
    if (m.target_words && m.target_words > 0 && Math.abs(m.words - m.target_words) / m.target_words > 0.25) {
      const diff = m.words - m.target_words;
      notes.push({
        issue: `${name(m)} has ${m.words} words against a target of ${m.target_words} (${diff > 0 ? '+' : ''}${Math.round((100 * diff) / m.target_words)}%).`,
        suggestion:
          diff > 0 ? `Trim about ${diff} words from ${name(m)}.` : `Expand ${name(m)} by about ${-diff} words.`,
      });
    }
    if (m.readability < 50)
      notes.push({
        issue: `${name(m)} is hard to read (Flesch ${m.readability}).`,
        suggestion: `Shorten sentences and prefer common words in ${name(m)}.`,
      });
    const strengths = [
      m.coherence >= 70 ? "Stays on the article's main topic." : '',
      m.transition >= 70 ? 'Connects smoothly with neighbouring sections.' : '',
      m.engagement >= 70 ? 'Engages the reader (questions, direct address, varied sentences, concrete figures).' : '',
      m.readability >= 60 ? 'Easy to read.' : '',
    ].filter(Boolean);
    all.push(...notes.map((n) => n.suggestion));
    detailed[m.id] = {
      flow_score: m.flow,
      readability_score: m.readability,
      engagement_score: m.engagement,
      coherence_score: m.coherence,
      transition_score: m.transition,
      issues: notes.map((n) => n.issue).slice(0, limit),
      strengths: strengths.slice(0, limit),
      suggestions: [...new Set(notes.map((n) => n.suggestion))].slice(0, limit),
    };
  }
  const cross = crossSection(sections);
  return {
    overall_flow_score: Math.round(mean(sections.map((s) => s.flow))),
    detailed_section_analysis: detailed,
    cross_section_analysis: {
      overall_coherence: Math.round(mean(sections.map((s) => s.coherence))),
      transition_quality: Math.round(boundaries.length ? mean(boundaries.map((b) => b.score)) : 100),
      thematic_consistency: cross.thematic,
      progression_logic: cross.progression,
    },
    recommendations: recommendations(sections, all),
    analysis_type: 'advanced',
  };
}
