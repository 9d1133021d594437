/**
 * The research corpus the offline research provider cites: every `url` of a
 * corpus source points here, so a citation can be followed. Public, like any
 * page a citation links to; the corpus is the project's own sample documents.
 */
import { NotFoundError } from '../../domain/errors';
import { defineRoute, RouteDef } from '../kernel/registry';
import type { CorpusDocument } from '../../infra/research';

/** What the document is, as its source entry says: a sample claims no publication, type or credibility. */
function aboutLine(doc: CorpusDocument): string {
  if (doc.source_type === 'sample')
    return `Sample document written for this platform, not a published source${doc.sample_of ? ` (written as a ${doc.sample_of} source)` : ''} · Sample date: ${doc.published_at ?? 'none'} · Credibility: none claimed`;
  const credibility = doc.credibility_score === null ? 'none claimed' : String(doc.credibility_score);
  return `Published: ${doc.published_at ?? 'unknown'} · Type: ${doc.source_type} · Credibility: ${credibility}`;
}

export const researchRoutes: RouteDef[] = [
  defineRoute<unknown, unknown, { slug: string }>({
    method: 'get',
    path: '/api/research/corpus/{slug}',
    auth: 'public',
    tags: ['research'],
    summary: 'A document of the local research corpus (Markdown)',
    description:
      'Where the url of every research-corpus source points, so a citation can be followed: the document as text/markdown, a `# title` line, a line saying what it is (for a sample document: written for this platform, not a published source, with its sample date and no credibility claimed; otherwise its publication date, type and credibility), then its body. Public: no key needed. A slug no corpus document has is 404.',
    request: {
      params: {
        type: 'object',
        properties: { slug: { type: 'string', pattern: '^[a-z0-9-]{1,120}$' } },
        required: ['slug'],
      },
    },
    responses: { 200: { description: 'The document', contentType: 'text/markdown', data: { type: 'string' } } },
    handler(ctx) {
      const doc = ctx.deps.corpus?.document(ctx.params.slug);
      if (!doc) throw new NotFoundError('No corpus document with this slug');
      const front = [`# ${doc.title}`, '', aboutLine(doc), ''].join('\n');
      return { raw: { contentType: 'text/markdown; charset=utf-8', body: `${front}\n${doc.body}\n` } };
    },
  }),
];
