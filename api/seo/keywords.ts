/**
 * POST /api/seo-dashboard/keywords/research (general family): keyword research
 * from the research corpus's term statistics and the configured keyword vendor,
 * each number with its source (docs/content.md "Keyword research"). A task by
 * the rule of api/kernel/tasks.ts.
 */
import type { KeywordResearchRequest } from '../../domain/content/types';
import { keywordResearchWorkflow } from '../../workflows';
import { defineRoute, RouteDef } from '../kernel/registry';
import { allRequired, anyString, arr, int, nullable, num, str, withRequired } from '../kernel/schema';
import { runTask, taskResponses } from '../kernel/tasks';
import { GENERATION_ERRORS } from '../content/routes';
import { words } from '../content/schemas';

const keywordRow = withRequired(
  {
    keyword: { type: 'string' },
    origin: arr({ enum: ['seed', 'vendor', 'corpus'] }),
    search_volume: nullable(int),
    competition: { enum: ['low', 'medium', 'high', null] },
    competition_index: nullable(num),
    cpc: nullable(num),
    top_of_page_bid: nullable(
      allRequired(
        { low: nullable(num), high: nullable(num) },
        {
          description: "The vendor's low and high top-of-page bids (null without vendor data)",
        },
      ),
    ),
    monthly_searches: arr(allRequired({ year: int, month: int, search_volume: nullable(int) }), {
      description: "The keyword vendor's monthly search volumes (empty without vendor data)",
    }),
    corpus: {
      type: ['object', 'null'],
      properties: { documents: int, of: int, occurrences: int, found_in: arr({ type: 'string' }) },
    },
    intent: nullable(anyString),
    intent_signal: nullable(anyString),
    sources: {
      type: 'object',
      description: 'Where each number of the row comes from (null = the row has no such number)',
      properties: {
        search_volume: nullable(anyString),
        competition: nullable(anyString),
        cpc: nullable(anyString),
        corpus: nullable(anyString),
        intent: nullable(anyString),
      },
    },
  },
  ['keyword', 'origin', 'search_volume', 'competition', 'corpus', 'intent', 'sources'],
);

export const keywordRoutes: RouteDef[] = [
  defineRoute<KeywordResearchRequest>({
    method: 'post',
    path: '/api/seo-dashboard/keywords/research',
    auth: 'user',
    tags: ['seo'],
    summary: 'Keyword research: corpus statistics, keyword vendor data and intent, each number with its source',
    description:
      'Seeds are measured in the research corpus (documents using each keyword, occurrences) and, when a keyword vendor is configured (KEYWORD_VENDOR=dataforseo), sent to it for ideas with search volume, competition and CPC (one metered request). Intent and clusters come from one metered AI call. A number no source has is null; data_sources says which sources answered. Answers 200 within the wait bound, else 202 with a task to poll.',
    request: {
      body: withRequired(
        {
          seed_keywords: words(20, 100, { minItems: 1 }),
          language: { ...str(40, { minLength: 2 }), default: 'en', description: 'ISO 639-1 code or language name' },
          location: { ...str(100), description: 'Location name (United States) or DataForSEO location code' },
          competition_level: {
            enum: ['low', 'medium', 'high'],
            description: 'Limits the vendor suggestions to this competition',
          },
        },
        ['seed_keywords'],
      ),
    },
    responses: taskResponses('The keywords', {
      taskType: 'keyword_research',
      result: withRequired(
        {
          seed_keywords: arr({ type: 'string' }),
          keywords: arr(keywordRow),
          clusters: arr(allRequired({ name: { type: 'string' }, keywords: arr({ type: 'string' }) })),
          data_sources: allRequired({
            corpus: withRequired(
              {
                documents: int,
                language: { type: 'string' },
                measures: { type: 'string' },
                note: { type: 'string', description: 'Present when the request language is not English' },
              },
              ['documents', 'language', 'measures'],
            ),
            keyword_vendor: withRequired(
              {
                name: nullable(anyString),
                configured: { type: 'boolean' },
                measures: { type: 'string', description: 'When configured: what the vendor measures' },
                ideas_returned: { ...int, description: 'When configured' },
                note: {
                  type: 'string',
                  description: 'When not configured: which numbers are null, and how to configure one',
                },
              },
              ['name', 'configured'],
            ),
            intent: allRequired(
              { provider: { type: 'string' }, model: { type: 'string' } },
              {
                description: 'Who classified the intent (the AI provider and model)',
              },
            ),
          }),
          filters: allRequired({ competition_level: { type: ['string', 'null'] } }),
          metadata: withRequired({ provider: { type: 'string' }, model: { type: 'string' } }, ['provider']),
        },
        ['keywords', 'data_sources', 'metadata'],
      ),
    }),
    errors: GENERATION_ERRORS,
    handler: (ctx) =>
      runTask(
        ctx,
        { workflow: keywordResearchWorkflow, taskType: 'keyword_research', idPrefix: 'keyword-research' },
        ctx.body,
      ),
  }),
];
