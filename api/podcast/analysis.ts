/**
 * Analysis, research and script routes of the podcast maker. Each is a task
 * (api/kernel/tasks.ts answer-or-task rule: 200 with the result within the
 * wait bound, else 202 + the task to poll); results are recorded on the
 * project when one is named. A script always belongs to a project (created
 * when the request names none), so that audio can require its approval.
 */
import { TEXT_TASK_TYPE, type TextJob } from '../../domain/podcast/jobs';
import { speakersOf, type ScriptRequest } from '../../domain/podcast/types';
import { titleOf } from '../../domain/podcast/script';
import { podcastResearchWorkflow, podcastScriptWorkflow, podcastTextWorkflow } from '../../workflows';
import { userIdOf } from '../kernel/handler';
import { defineRoute, RouteDef } from '../kernel/registry';

import { runTask, taskResponses } from '../kernel/tasks';
import { boundErrors } from '../kernel/fair-use';
import { currentProject, PREFIX, projectCommand, tags } from './common';
import { createProject } from './projects';
import {
  analysisSchema,
  approveBody,
  enhancedIdeaSchema,
  ideaBody,
  queriesBody,
  queriesSchema,
  researchBody,
  researchSchema,
  scriptBody,
  scriptResult,
  writerFields,
} from './schemas/analysis';
import { projectSchema } from './schemas/projects';
import type { JsonSchema } from '../kernel/envelopes/common';
import { getProject } from '../../projections/podcast';
import { projectView } from './views';

const TASK_ERRORS = {
  404: "No such project (or not the caller's)",
  502: 'The text vendor failed or answered unusably',
  503: 'Background work (Temporal) or the chosen text vendor is not available',
};

type IdeaBody = TextJob['input'] & { project_id?: string; provider?: TextJob['provider'] };

const RESULT: Record<TextJob['kind'], JsonSchema> = {
  enhance: enhancedIdeaSchema,
  analyze: analysisSchema,
  queries: queriesSchema,
};
/** A text task's answer: the note's fields plus which writer answered. */
const withWriter = (s: JsonSchema): JsonSchema => ({
  ...s,
  properties: { ...(s.properties as object), ...writerFields },
  required: [...((s.required as string[]) ?? []), 'provider', 'model', 'offline'],
});

function textRoute(kind: TextJob['kind'], path: string, summary: string, description: string, body = ideaBody) {
  const taskType = TEXT_TASK_TYPE[kind];
  return defineRoute<IdeaBody>({
    method: 'post',
    path: `${PREFIX}${path}`,
    auth: 'user',
    successBody: 'bare',
    tags,
    summary,
    description: `${description} One metered AI call (the offline writer \`local\` when no text vendor is configured: \`provider\`, \`offline\` say which). Recorded in the project's notes when project_id is given.`,
    request: { body },
    responses: taskResponses(summary, { taskType, result: withWriter(RESULT[kind]) }),
    errors: TASK_ERRORS,
    async handler(ctx) {
      const { project_id, provider, ...input } = ctx.body;
      if (project_id) await currentProject(ctx, project_id);
      const job: TextJob = { kind, input, ...(project_id ? { project_id } : {}), ...(provider ? { provider } : {}) };
      return runTask(
        ctx,
        {
          workflow: podcastTextWorkflow,
          taskType,
          idPrefix: 'podcast-text',
        },
        job,
      );
    },
  });
}

export const analysisRoutes: RouteDef[] = [
  textRoute(
    'enhance',
    '/idea/enhance',
    'Enhance an episode idea',
    'Answers `enhanced_idea`, `title_suggestions`, `hooks`, `keywords`.',
  ),
  textRoute(
    'analyze',
    '/analyze',
    'Analyse an episode idea',
    'Answers `audience`, `angle`, `tone`, `keywords`, `segment_outline[{title, minutes, goal}]`, `questions`.',
  ),
  textRoute(
    'queries',
    '/regenerate-queries',
    'Write (new) research queries',
    'Answers `queries`, different from `previous`.',
    queriesBody,
  ),

  defineRoute<{ queries: string[]; project_id?: string; limit: number }>({
    method: 'post',
    path: `${PREFIX}/research/exa`,
    auth: 'user',
    successBody: 'bare',
    tags,
    summary: 'Research the queries (web-search vendor, or the local corpus)',
    description:
      "The route keeps its name, but searches with whatever is configured: the web-search vendor (WEB_SEARCH_PROVIDER, e.g. exa or tavily) merged with the local research corpus, or the corpus alone. `source` says which (`corpus`, `exa+corpus`, …), `offline` is true without a vendor. Each query's sources are listed once.",
    request: { body: researchBody },
    responses: taskResponses('Sources per query', { taskType: 'podcast_research', result: researchSchema }),
    errors: TASK_ERRORS,
    async handler(ctx) {
      if (ctx.body.project_id) await currentProject(ctx, ctx.body.project_id);
      return runTask(
        ctx,
        {
          workflow: podcastResearchWorkflow,
          taskType: 'podcast_research',
          idPrefix: 'podcast-research',
          // The research result names no project: wait for the project the request named.
        },
        ctx.body,
      );
    },
  }),

  defineRoute<Omit<ScriptRequest, 'speakers'> & { speakers: ScriptRequest['speakers'] | number; project_id?: string }>({
    method: 'post',
    path: `${PREFIX}/script`,
    auth: 'user',
    successBody: 'bare',
    tags,
    summary: 'Write a multi-speaker script sized to the duration',
    description:
      "About 150 spoken words a minute (a 10-minute episode ≈ 1,500 words), split into scenes of about a minute (`scene-1`, `scene-2`, …), each a list of `{speaker, text}` lines; speaker n gets the n-th distinct offline voice unless it names one. The script becomes the project's new version (a project is created when project_id is absent) and must be approved (POST /script/approve) before audio is made.",
    request: { body: scriptBody },
    responses: taskResponses('The script', { taskType: 'podcast_script', result: scriptResult }),
    errors: { ...TASK_ERRORS, ...boundErrors('podcast_script') },
    async handler(ctx) {
      const { project_id, speakers, ...rest } = ctx.body;
      const request: ScriptRequest = {
        ...rest,
        speakers: typeof speakers === 'number' ? speakersOf(speakers) : speakers,
      };
      const id = project_id ?? (await createProject(ctx, titleOf(request.idea), request.idea.trim()));
      // The project must be the caller's; the script's version is numbered when it is stored.
      await currentProject(ctx, id);
      return runTask(
        ctx,
        {
          workflow: podcastScriptWorkflow,
          taskType: 'podcast_script',
          idPrefix: 'podcast-script',
        },
        { project_id: id, request },
      );
    },
  }),

  defineRoute<{ project_id: string; version?: number }>({
    method: 'post',
    path: `${PREFIX}/script/approve`,
    auth: 'user',
    successBody: 'bare',
    tags,
    summary: "Approve the project's current script (audio needs it)",
    description:
      'Records approval of the current script version (409 when `version` is given and is not the current one, or when there is no script). Writing a new script clears the approval.',
    request: { body: approveBody },
    responses: { 200: { description: 'The project, script_approved: true', data: projectSchema } },
    errors: { 404: "No such project (or not the caller's)", 409: 'No script, or not the current version' },
    async handler(ctx) {
      await projectCommand(ctx, ctx.body.project_id, {
        kind: 'approve_script',
        user_id: userIdOf(ctx),
        ...(ctx.body.version !== undefined ? { version: ctx.body.version } : {}),
        now: new Date().toISOString(),
      });
      const r = await getProject(ctx.deps.db, userIdOf(ctx), ctx.body.project_id);
      return { data: projectView(ctx, r!) };
    },
  }),
];
