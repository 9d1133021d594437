/**
 * The content evaluation's long-form routes (scripts/eval/routes.ts): the blog writer, a blog section, the medium
 * blog, and the developer API's blog post.
 */

import { call, Json, must } from './client';
import { EvalRoute, referencesOf, sentenceCase, sourcesAsRefs } from './eval-route';

export const BLOG_ROUTES: EvalRoute[] = [
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
];
