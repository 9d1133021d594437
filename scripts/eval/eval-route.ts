/**
 * What a route of the content evaluation is (scripts/eval/routes.ts): how it runs a brief and the pieces it
 * answers; and what the route entries share to build requests from a brief and read references from answers.
 */
import type { Brief, Piece, Reference } from './metrics';
import type { Client } from './client';

export const sentenceCase = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
export const TONES: Record<string, 'professional' | 'friendly' | 'casual' | 'formal'> = {
  friendly: 'friendly',
  casual: 'casual',
  formal: 'formal',
};
export const PLATFORM_LIMIT: Record<string, number> = {
  profnet: 3000,
  socialnet: 63206,
  photonet: 2200,
  microblog: 280,
  videonet: 5000,
  adnet_ads: 125,
};
export const tomorrow = (days = 1) => new Date(Date.now() + days * 86_400_000);

/** References of a Markdown article: the `## References` lines `n. Title. <url>`. */
export function referencesOf(markdown: string): Reference[] {
  const cut = markdown.search(/^#{1,6}\s*references\s*$/im);
  if (cut < 0) return [];
  return [...markdown.slice(cut).matchAll(/^(\d+)\.\s+(.*?)\.?\s*<(https?:\/\/[^>]+)>/gm)].map((m) => ({
    n: Number(m[1]),
    title: m[2],
    url: m[3],
  }));
}

export const sourcesAsRefs = (sources: unknown): Reference[] =>
  ((sources as Array<{ index?: number; title?: string; url?: string; excerpt?: string }> | undefined) ?? [])
    .filter((s) => typeof s.index === 'number')
    .map((s) => ({ n: s.index!, title: s.title, url: s.url, excerpt: s.excerpt }));

export interface RouteRun {
  /** The pieces of the answer (most routes give one). */
  pieces: Array<Omit<Piece, 'route' | 'provider' | 'brief'>>;
  /** Parts of the answer the platform reported it could not write (a series' failed posts), counted as failures. */
  failures?: string[];
}

export interface EvalRoute {
  id: string;
  family: string;
  /** Whether the in-process model writes any of it (otherwise `llama` runs give the template writer's text). */
  model: boolean;
  run(c: Client, b: Brief, ctx: { calendarId: string; provider: string }): Promise<RouteRun>;
}
