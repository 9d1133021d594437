/**
 * The text-producing routes the content evaluation sends each brief through (docs/quality.md), one entry per
 * route: how a brief becomes that route's request — only through the fields the route has, as a client written
 * from the spec would send them — and where the text, its hashtags and its references are in the answer.
 * What a route cannot be told (a route without key points, a CTA flag without its text) is not held against it.
 */
import type { Brief, Piece, Reference } from './metrics';
import { undocumentedAnswer } from './conformance';
import { rawRequest } from '../../test/support/http';

export interface Client {
  base: string;
  key: string;
  session: string;
}

type Json = Record<string, unknown>;

/** One HTTP call; a 202 task answer is polled to its end (the answer-or-task rule and the writers' variant). */
export async function call(c: Client, method: string, path: string, body?: unknown, auth: 'key' | 'session' = 'key') {
  const headers: Record<string, string> = {
    authorization: `Bearer ${auth === 'key' ? c.key : c.session}`,
    'content-type': 'application/json',
  };
  // node:http, not fetch: fetch gives up after 300 s without response headers, while a synchronous route may run
  // up to its workflow's 10-minute bound on a slow self-hosted model (docs/api.md): the client waits as long.
  const first = await rawRequest(
    `${c.base}${path}`,
    method,
    headers,
    body === undefined ? undefined : JSON.stringify(body),
  );
  const json = ((): Json => {
    try {
      return JSON.parse(first.body) as Json;
    } catch {
      return {};
    }
  })();
  // Every answer must be the one the document promises (a 2xx of the wrong shape fails the piece).
  const conforms = async (m: string, p: string, status: number, b: unknown) => {
    const why = status < 300 ? await undocumentedAnswer(c.base, m, p, status, b) : undefined;
    if (why) throw new Error(`answer not as documented: ${why} in ${JSON.stringify(b).slice(0, 300)}`);
  };
  await conforms(method, path, first.status, json);
  const statusUrl = (json.status_url ?? (json.data as Json | undefined)?.status_url) as string | undefined;
  if (first.status === 202 && statusUrl) {
    const end = Date.now() + 15 * 60_000;
    for (;;) {
      await new Promise((res) => setTimeout(res, 1000));
      const r = await fetch(`${c.base}${statusUrl}`, { headers });
      const t = (await r.json()) as Json;
      await conforms('GET', statusUrl, r.status, t);
      const task = (t.data ?? t) as Json;
      // The answer a 200 would have been: the result as `data` (enveloped families) and at the top (the writers'
      // bare bodies).
      if (task.status === 'completed') {
        const result = task.result as Json;
        return { status: 200, json: { ...t, ...result, data: result, result } };
      }
      if (task.status === 'failed' || task.status === 'cancelled') return { status: 500, json: t };
      if (Date.now() > end) throw new Error(`${path}: task did not finish in 15 minutes`);
    }
  }
  return { status: first.status, json };
}

const sentenceCase = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const TONES: Record<string, 'professional' | 'friendly' | 'casual' | 'formal'> = {
  friendly: 'friendly',
  casual: 'casual',
  formal: 'formal',
};
const PLATFORM_LIMIT: Record<string, number> = {
  profnet: 3000,
  socialnet: 63206,
  photonet: 2200,
  microblog: 280,
  videonet: 5000,
  adnet_ads: 125,
};
const tomorrow = (days = 1) => new Date(Date.now() + days * 86_400_000);

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

const sourcesAsRefs = (sources: unknown): Reference[] =>
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

const must = (r: { status: number; json: Json }, what: string) => {
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.json).slice(0, 400)}`);
  return r.json;
};

export const ROUTES: EvalRoute[] = [
  {
    id: 'blog-writer',
    family: 'general',
    model: false,
    async run(c, b) {
      const j = must(
        await call(c, 'POST', '/api/blog-writer', {
          topic: b.topic,
          target_audience: b.audience,
          tone: b.tone,
          word_count: b.words,
          content_type: b.format.kind === 'listicle' ? 'listicle' : 'how-to-guide',
        }),
        'blog-writer',
      );
      const d = j.data as Json;
      const text = d.content as string;
      return {
        pieces: [
          {
            text,
            references: referencesOf(text),
            // The route takes a content_type but no item count: a listicle must be a list, of what the writer had.
            expects: {
              words: b.words,
              keyPoints: false,
              ...(b.format.kind === 'listicle' ? { listicle: 'list' as const } : {}),
            },
            metadata: d.metadata,
          },
        ],
      };
    },
  },
  {
    id: 'blog-section',
    family: 'blog',
    model: true,
    async run(c, b, ctx) {
      const words = Math.min(b.words, 400);
      const j = must(
        await call(c, 'POST', '/api/blog/section/generate', {
          section: { id: 's1', heading: sentenceCase(b.topic), key_points: b.key_points, target_words: words },
          tone: b.tone,
          persona: { audience: b.audience },
          provider: ctx.provider === 'vendor' ? 'vendor_a' : ctx.provider,
        }),
        'section',
      );
      return {
        pieces: [
          {
            text: j.markdown as string,
            references: sourcesAsRefs(j.citations),
            expects: { words, keyPoints: true },
            metadata: j.metadata,
          },
        ],
      };
    },
  },
  {
    id: 'blog-medium',
    family: 'blog',
    model: true,
    async run(c, b) {
      const start = must(
        await call(c, 'POST', '/api/blog/generate/medium/start', {
          title: sentenceCase(b.topic),
          audience: b.audience,
          tone: b.tone,
          globalTargetWords: Math.min(b.words, 900),
          sections: b.key_points.map((p, i) => ({ id: `s${i + 1}`, heading: sentenceCase(p), keyPoints: [p] })),
        }),
        'medium',
      );
      const status = `/api/blog/generate/medium/status/${start.task_id as string}`;
      const end = Date.now() + 20 * 60_000;
      let result: Json | undefined;
      while (!result) {
        await new Promise((res) => setTimeout(res, 1000));
        const s = must(await call(c, 'GET', status), 'medium status');
        if (s.status === 'completed') result = s.result as Json;
        else if (s.status === 'failed' || s.status === 'cancelled') throw new Error(`medium: ${JSON.stringify(s)}`);
        if (Date.now() > end) throw new Error('medium: not finished in 20 minutes');
      }
      const sections = result.sections as Array<{
        heading: string;
        content: string;
        sources?: unknown;
        metadata?: unknown;
      }>;
      const text = [`# ${result.title as string}`, ...sections.map((s) => `## ${s.heading}\n\n${s.content}`)].join(
        '\n\n',
      );
      return {
        pieces: [
          {
            text,
            references: sections.flatMap((s) => sourcesAsRefs(s.sources)),
            expects: { words: Math.min(b.words, 900), keyPoints: true },
            metadata: sections.map((s) => s.metadata),
          },
        ],
      };
    },
  },
  {
    id: 'v1-blog',
    family: 'developer',
    model: false,
    async run(c, b) {
      const j = must(
        await call(c, 'POST', '/v1/content/generate', {
          type: 'blog_post',
          topic: b.topic,
          key_points: b.key_points,
          tone: b.tone,
          length: 'short',
        }),
        'v1 blog',
      );
      const d = j.data as Json;
      const text = d.content as string;
      return {
        pieces: [
          { text, references: referencesOf(text), expects: { words: 500, keyPoints: true }, metadata: d.metadata },
        ],
      };
    },
  },
  {
    id: 'v1-social',
    family: 'developer',
    model: false,
    async run(c, b) {
      const j = must(
        await call(c, 'POST', '/v1/content/generate', {
          type: 'social_media',
          topic: b.topic,
          key_points: b.key_points,
          tone: b.tone,
          platform: b.platform,
          include_cta: Boolean(b.cta),
          include_hashtags: true,
        }),
        'v1 social',
      );
      const d = j.data as Json;
      const m = d.metadata as Json;
      return {
        pieces: [
          {
            text: d.content as string,
            hashtags: m.hashtags as string[],
            expects: { maxChars: PLATFORM_LIMIT[b.platform], keyPoints: true, cta: Boolean(b.cta) },
            metadata: m,
          },
        ],
      };
    },
  },
  {
    id: 'profnet-writer',
    family: 'general',
    model: false,
    async run(c, b) {
      const j = must(
        await call(c, 'POST', '/api/profnet-writer', {
          topic: b.topic,
          tone: b.tone,
          target_audience: b.audience,
          include_hashtags: true,
          content_type: 'post',
        }),
        'profnet-writer',
      );
      const d = j.data as Json;
      return {
        pieces: [
          {
            text: d.content as string,
            hashtags: d.hashtags as string[],
            expects: { maxChars: 3000, keyPoints: false },
            metadata: d.metadata,
          },
        ],
      };
    },
  },
  {
    id: 'profnet-post',
    family: 'writers',
    model: false,
    async run(c, b) {
      const j = must(
        await call(c, 'POST', '/api/profnet/generate-post', {
          topic: b.topic,
          audience: b.audience,
          tone: b.tone,
          content_type: b.format.kind === 'listicle' ? 'tips' : 'insight',
        }),
        'profnet post',
      );
      const content = j.content as Json;
      return {
        pieces: [
          {
            text: j.text as string,
            hashtags: content.hashtags as string[],
            expects: { maxChars: 3000, keyPoints: false },
            metadata: j.metadata,
          },
        ],
      };
    },
  },
  {
    id: 'socialnet-post',
    family: 'writers',
    model: false,
    async run(c, b) {
      const j = must(
        await call(c, 'POST', '/api/socialnet-writer/post/generate', {
          topic: b.topic,
          audience: b.audience,
          tone: b.tone,
          engagement_hooks: { add_cta: Boolean(b.cta) },
        }),
        'socialnet post',
      );
      const content = j.content as Json;
      return {
        pieces: [
          {
            text: j.text as string,
            hashtags: content.hashtags as string[],
            expects: { keyPoints: false, cta: Boolean(b.cta) },
            metadata: j.metadata,
          },
        ],
      };
    },
  },
  {
    id: 'calendar-post',
    family: 'calendar',
    model: false,
    async run(c, b, ctx) {
      const j = must(
        await call(c, 'POST', `/v1/calendar/calendars/${ctx.calendarId}/events/generate`, {
          topic: b.topic,
          audience: b.audience,
          tone: b.tone,
          platform: b.platform,
          include_cta: Boolean(b.cta),
          include_hashtags: true,
          scheduled_at: tomorrow(2).toISOString(),
        }),
        'calendar post',
      );
      const content = j.content as Json;
      return {
        pieces: [
          {
            text: (content.thread_content as string[]).join('\n\n'),
            hashtags: content.hashtags as string[],
            expects: { keyPoints: false, cta: Boolean(b.cta) },
            metadata: j.generation,
          },
        ],
      };
    },
  },
  {
    id: 'calendar-series',
    family: 'calendar',
    model: false,
    async run(c, b, ctx) {
      const j = must(
        await call(c, 'POST', `/v1/calendar/calendars/${ctx.calendarId}/series/generate`, {
          series_title: sentenceCase(b.topic),
          description: b.key_points.join('; '),
          content_types: ['social_post'],
          platforms: [b.platform],
          schedule: { frequency: 'weekly', start_date: tomorrow(3).toISOString().slice(0, 10), count: 5 },
          audience: b.audience,
          tone: b.tone,
        }),
        'calendar series',
      );
      const events = j.events as Array<{ content: { thread_content: string[]; hashtags: string[] } }>;
      const failed = (j.failed ?? []) as Array<{ series_index: number; error: { code: string; message: string } }>;
      return {
        failures: failed.map((f) => `post ${f.series_index + 1} of 5: ${f.error.code} ${f.error.message}`),
        // The series is judged as one piece: a sentence shared by two posts is a duplicate.
        pieces: [
          {
            text: events.map((e) => e.content.thread_content.join('\n\n')).join('\n\n'),
            hashtags: events.flatMap((e) => e.content.hashtags),
            expects: { keyPoints: true },
            metadata: j.generation,
          },
        ],
      };
    },
  },
  {
    id: 'podcast-script',
    family: 'podcast',
    model: false,
    async run(c, b) {
      const j = must(
        await call(c, 'POST', '/api/podcast/script', {
          idea: b.topic,
          duration_minutes: 1,
          tone: b.tone,
          speakers: [
            { name: 'Maya', role: 'host' },
            { name: 'Sam', role: 'guest' },
          ],
          analysis: JSON.stringify({
            audience: b.audience,
            tone: b.tone,
            segment_outline: b.key_points.map((p) => ({ title: sentenceCase(p), minutes: 0.3 })),
          }),
        }),
        'podcast script',
      );
      const script = ((j.data as Json | undefined)?.script ?? j.script) as {
        title: string;
        scenes: Array<{ title: string; lines: Array<{ speaker: string; text: string }> }>;
      };
      const text = script.scenes.map((s) => s.lines.map((l) => l.text).join('\n\n')).join('\n\n');
      return { pieces: [{ text, expects: { keyPoints: true, words: 150 }, metadata: script }] };
    },
  },
  {
    id: 'video-plan',
    family: 'video',
    model: false,
    async run(c, b) {
      const j = must(
        await call(c, 'POST', '/api/videonet/plan', {
          topic: b.topic,
          key_points: b.key_points,
          audience: b.audience,
          tone: b.tone,
          format: 'short',
          duration_seconds: 45,
        }),
        'video plan',
      );
      const scenes = j.scenes as Array<{ narration: string }>;
      return {
        pieces: [
          {
            text: scenes.map((s) => s.narration).join('\n\n'),
            expects: { keyPoints: true },
            metadata: { provider: j.provider, model: j.model, offline: j.offline },
          },
        ],
      };
    },
  },
  {
    id: 'outreach-email',
    family: 'outreach',
    model: false,
    async run(c, b) {
      const j = must(
        await call(
          c,
          'POST',
          '/api/v1/backlink-outreach/emails/generate',
          { topic: b.topic, tone: TONES[b.tone] ?? 'professional' },
          'session',
        ),
        'outreach email',
      );
      return {
        pieces: [
          {
            text: `${j.subject as string}\n\n${j.body as string}`,
            expects: { keyPoints: false },
            metadata: j.metadata,
          },
        ],
      };
    },
  },
];

/** A calendar for the calendar routes (one per run). */
export async function createCalendar(c: Client): Promise<string> {
  const j = must(await call(c, 'POST', '/v1/calendar/calendars', { name: 'Content evaluation' }), 'calendar');
  return j.id as string;
}
