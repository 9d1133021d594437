/**
 * The analysis stage's offline writer (provider `local`): deterministic
 * templates over the idea's own words, never invented facts. A configured
 * text vendor is asked for the same JSON shapes (domain/podcast/prompts.ts).
 */
import { sceneCountFor } from './script';

export interface IdeaInput {
  idea: string;
  audience?: string;
  tone?: string;
  duration_minutes?: number;
  context?: string;
}

export interface EnhancedIdea {
  enhanced_idea: string;
  title_suggestions: string[];
  hooks: string[];
  keywords: string[];
}

export interface IdeaAnalysis {
  audience: string;
  angle: string;
  tone: string;
  keywords: string[];
  segment_outline: Array<{ title: string; minutes: number; goal: string }>;
  questions: string[];
}

export interface SearchQueries {
  queries: string[];
}

const STOP = new Set(
  'a an the and or but of to in on for with about from by at is are was were be been it its this that these those how why what when who whom which your our my their his her we you they i as into over under than then so do does did can could should would will just not no yes more most very'.split(
    ' ',
  ),
);

/** Content words of the idea, in order of first appearance (at most `n`). */
export function ideaKeywords(idea: string, n = 6): string[] {
  const seen = new Set<string>();
  for (const w of idea.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? []) {
    if (w.length < 3 || STOP.has(w) || seen.has(w)) continue;
    seen.add(w);
    if (seen.size >= n) break;
  }
  return [...seen];
}

const topicOf = (idea: string) =>
  idea
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.!?]+$/, '');
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function enhanceIdeaOffline(i: IdeaInput): EnhancedIdea {
  const topic = topicOf(i.idea);
  const audience = i.audience?.trim() || 'curious listeners';
  const keywords = ideaKeywords(topic);
  return {
    enhanced_idea: `${cap(topic)}: a ${i.tone?.trim() || 'conversational'} episode for ${audience} that explains what it is, why it matters now, and the practical steps to act on it${keywords.length ? `, with a focus on ${keywords.slice(0, 3).join(', ')}` : ''}.`,
    title_suggestions: [cap(topic), `${cap(topic)}, explained`, `What everyone gets wrong about ${topic}`],
    hooks: [
      `What would change for ${audience} if they got ${topic} right?`,
      `Most people start ${topic} the wrong way. Here is the better first step.`,
    ],
    keywords,
  };
}

export function analyzeIdeaOffline(i: IdeaInput): IdeaAnalysis {
  const topic = topicOf(i.idea);
  const minutes = i.duration_minutes ?? 10;
  const n = sceneCountFor(minutes);
  const titles = Array.from({ length: n }, (_, k) =>
    k === 0
      ? `Introducing ${topic}`
      : k === n - 1
        ? `Takeaways on ${topic}`
        : [`Why ${topic} matters`, `How ${topic} works`, `Common mistakes with ${topic}`, `An example of ${topic}`][
            (k - 1) % 4
          ],
  );
  const per = Math.round((minutes / n) * 10) / 10;
  return {
    audience: i.audience?.trim() || `Listeners new to ${topic} who want practical guidance`,
    angle: `A practical conversation on ${topic}: what it is, why it matters and what to do first`,
    tone: i.tone?.trim() || 'conversational',
    keywords: ideaKeywords(topic),
    segment_outline: titles.map((title, k) => ({
      title,
      minutes: per,
      goal:
        k === 0
          ? 'hook the listener and set expectations'
          : k === n - 1
            ? 'summarise and give a next step'
            : 'explain one aspect with an example',
    })),
    questions: [`What is ${topic}?`, `Why does ${topic} matter now?`, `How do you get started with ${topic}?`],
  };
}

export function searchQueriesOffline(i: IdeaInput & { count?: number; previous?: string[] }): SearchQueries {
  const topic = topicOf(i.idea);
  const kw = ideaKeywords(topic, 4);
  const prior = new Set((i.previous ?? []).map((q) => q.toLowerCase()));
  const candidates = [
    `${topic} statistics`,
    `${topic} best practices`,
    `${topic} common mistakes`,
    `${topic} examples`,
    `${topic} research study`,
    `${topic} expert interview`,
    `how does ${topic} work`,
    `${topic} trends`,
    ...kw.map((k) => `${k} ${topic === k ? 'guide' : 'explained'}`),
  ];
  return {
    queries: candidates.filter((q) => !prior.has(q.toLowerCase())).slice(0, i.count ?? 6),
  };
}
