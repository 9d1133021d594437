/** Prompts text vendors get for the podcast maker (pure); each asks for the JSON the offline writer returns. */
import type { ChatTurn as ChatMessage } from '../ai/chat';
import type { IdeaInput } from './analysis';
import type { ScriptInput } from './script';

const system = (role: string): ChatMessage => ({
  role: 'system',
  content: `You are ${role} for a podcast production team. Answer with one JSON object only, no prose around it.`,
});

const ctx = (i: IdeaInput) =>
  [
    `Idea: ${i.idea}`,
    i.audience ? `Audience: ${i.audience}` : '',
    i.tone ? `Tone: ${i.tone}` : '',
    i.duration_minutes ? `Length: ${i.duration_minutes} minutes` : '',
    i.context ? `Context:\n${i.context}` : '',
  ]
    .filter(Boolean)
    .join('\n');

export const enhanceIdeaPrompt = (i: IdeaInput): ChatMessage[] => [
  system('an editor'),
  {
    role: 'user',
    content: `${ctx(i)}\n\nSharpen this episode idea. JSON: {"enhanced_idea": string, "title_suggestions": [3 strings], "hooks": [2 strings], "keywords": [up to 6 strings]}`,
  },
];

export const analyzeIdeaPrompt = (i: IdeaInput): ChatMessage[] => [
  system('a show producer'),
  {
    role: 'user',
    content: `${ctx(i)}\n\nAnalyse the episode. JSON: {"audience": string, "angle": string, "tone": string, "keywords": [strings], "segment_outline": [{"title": string, "minutes": number, "goal": string}], "questions": [strings]}`,
  },
];

export const queriesPrompt = (i: IdeaInput & { count?: number; previous?: string[] }): ChatMessage[] => [
  system('a research assistant'),
  {
    role: 'user',
    content: `${ctx(i)}\n\nWrite ${i.count ?? 6} web search queries to research this episode${i.previous?.length ? `, different from: ${i.previous.join('; ')}` : ''}. JSON: {"queries": [strings]}`,
  },
];

export const scriptPrompt = (s: ScriptInput): ChatMessage[] => [
  system('a podcast scriptwriter'),
  {
    role: 'user',
    content: [
      `Write a ${s.duration_minutes}-minute episode (about ${s.target_words} spoken words, 150 words a minute) in ${s.scene_count} scenes.`,
      `Idea: ${s.idea}`,
      `Speakers (use their ids): ${s.speakers.map((p) => `${p.id} = ${p.name}${p.role ? ` (${p.role})` : ''}`).join('; ')}`,
      s.tone ? `Tone: ${s.tone}` : '',
      s.analysis ? `Analysis:\n${s.analysis}` : '',
      s.research ? `Research notes (cite only these facts):\n${s.research}` : '',
      s.bible ? `Show bible:\n${s.bible}` : '',
      'JSON: {"title": string, "scenes": [{"title": string, "lines": [{"speaker": id, "text": string}]}]}',
    ]
      .filter(Boolean)
      .join('\n'),
  },
];

export const translatePrompt = (texts: string[], from: string, to: string): ChatMessage[] => [
  system('a professional translator'),
  {
    role: 'user',
    content: `Translate each string from ${from} to ${to}, keeping meaning and length close (the result is dubbed over the original timing). JSON: {"translations": [${texts.length} strings, same order]}\n\n${JSON.stringify(texts)}`,
  },
];
