/**
 * Email writing (Document 3: /emails/generate, /emails/personalize,
 * /emails/subject-suggestions, /emails/follow-up). Each executes a workflow
 * whose activity calls the AI gateway (metered against the caller's plan).
 * With no text vendor configured the offline `local` provider writes from
 * templates, and `metadata` says so (`offline: true`, `method: "template"`).
 */
import { randomUUID } from 'node:crypto';
import { NotFoundError } from '../../domain/errors';
import { Tone, TONES } from '../../domain/outreach/writer';
import { BARE_SITE_PATTERN, siteUrl } from '../../domain/outreach/normalize';
import { getTemplate } from '../../projections/outreach';
import {
  outreachFollowUpEmailWorkflow,
  outreachGenerateEmailWorkflow,
  outreachPersonalizeEmailWorkflow,
  outreachSubjectSuggestionsWorkflow,
} from '../../workflows';
import { defineRoute, RouteDef } from '../kernel/registry';
import { userIdOf } from '../kernel/handler';
import { runMeteredWorkflow } from '../kernel/tasks';
import { allRequired, arr, httpUrl, str, text, uuid, withRequired } from '../kernel/schema';
import { BASE, tags, writingMetadata } from './schemas';

const tone = { enum: TONES, default: 'professional' };
const draft = allRequired({ subject: { type: 'string' }, body: { type: 'string' }, metadata: writingMetadata });
const id = (kind: string) => `outreach-email-${kind}-${randomUUID()}`;
const errors = {
  409: 'Work id already in use; retry',
  429: 'A plan limit of AI use is reached (UsageLimitExceededException)',
  502: 'The text vendor failed',
  503: 'The text vendor asked for is not configured, or background work is unavailable',
};

export const emailRoutes: RouteDef[] = [
  defineRoute<{ topic: string; tone: Tone; template_id?: string }>({
    method: 'post',
    path: `${BASE}/emails/generate`,
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'Write a first outreach email on a topic (from a saved template when template_id is given)',
    description:
      'Lead details stay {placeholders} ({first_name}, {website}, {sender_name}) for /emails/personalize or a send to fill.',
    request: { body: withRequired({ topic: text(300), tone, template_id: uuid }, ['topic']) },
    responses: { 200: { description: 'subject and body, and which provider wrote them', data: draft } },
    errors: { ...errors, 404: 'No such template (or not the caller’s)' },
    handler: async (ctx) => {
      const userId = userIdOf(ctx);
      const t = ctx.body.template_id ? await getTemplate(ctx.deps.db, userId, ctx.body.template_id) : undefined;
      if (ctx.body.template_id && !t) throw new NotFoundError('Template not found');
      const r = await runMeteredWorkflow(ctx, outreachGenerateEmailWorkflow, {
        workflowId: id('generate'),
        userId: userIdOf(ctx),
        args: [
          {
            userId,
            topic: ctx.body.topic,
            tone: ctx.body.tone,
            ...(t ? { template: { subject: t.subject, body: t.body } } : {}),
          },
        ],
      });
      return { data: r };
    },
  }),
  defineRoute<{ base_email: string; lead_name?: string; lead_website?: string; content_topic?: string }>({
    method: 'post',
    path: `${BASE}/emails/personalize`,
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'Personalise an email for a lead: fill {placeholders}, greet by name, mention the site',
    description:
      'A first line `Subject: ...` in base_email is taken as the subject. Placeholders without a value stay and are listed in `unfilled_placeholders`.',
    request: {
      body: withRequired(
        {
          base_email: text(20000),
          lead_name: str(200),
          lead_website: {
            oneOf: [httpUrl(), { type: 'string', maxLength: 2048, pattern: BARE_SITE_PATTERN }],
            description:
              "The lead's site: an http(s) URL, or a bare host such as blog.test (read as https://blog.test)",
          },
          content_topic: str(300),
        },
        ['base_email'],
      ),
    },
    responses: {
      200: {
        description: 'The personalised subject and body',
        data: allRequired({ ...draft.properties, unfilled_placeholders: arr() }),
      },
    },
    errors,
    handler: async (ctx) => {
      const r = await runMeteredWorkflow(ctx, outreachPersonalizeEmailWorkflow, {
        workflowId: id('personalize'),
        userId: userIdOf(ctx),
        args: [
          {
            userId: userIdOf(ctx),
            ...ctx.body,
            ...(ctx.body.lead_website ? { lead_website: siteUrl(ctx.body.lead_website) } : {}),
          },
        ],
      });
      const unfilled = [...`${r.subject}\n${r.body}`.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1]);
      return { data: { ...r, unfilled_placeholders: [...new Set(unfilled)] } };
    },
  }),
  defineRoute<{ topic: string; tone: Tone }>({
    method: 'post',
    path: `${BASE}/emails/subject-suggestions`,
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'Subject line suggestions for a topic',
    description:
      'One AI call through the gateway (metered against the plan); without a text vendor the offline template writer answers, and `metadata` says which (`offline`, `method`). A vendor answer that is not valid JSON of the expected shape is 502, never replaced by template text.',
    request: { body: withRequired({ topic: text(300), tone }, ['topic']) },
    responses: {
      200: { description: 'Suggestions', data: allRequired({ suggestions: arr(), metadata: writingMetadata }) },
    },
    errors,
    handler: async (ctx) => ({
      data: await runMeteredWorkflow(ctx, outreachSubjectSuggestionsWorkflow, {
        workflowId: id('subjects'),
        userId: userIdOf(ctx),
        args: [{ userId: userIdOf(ctx), topic: ctx.body.topic, tone: ctx.body.tone }],
      }),
    }),
  }),
  defineRoute<{ original_subject: string; original_body: string; tone: Tone }>({
    method: 'post',
    path: `${BASE}/emails/follow-up`,
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'A follow-up to an unanswered email (subject "Re: ...", the original quoted)',
    description:
      'Writes the nudge the follow-up steps send: subject `Re: <original subject>` (never `Re: Re:`), the original greeting, a short nudge and close naming the topic read from the original, and the original quoted. One AI call through the gateway (metered); without a text vendor the offline template writer answers, as `metadata` says. Nothing is sent.',
    request: {
      body: withRequired({ original_subject: text(500), original_body: text(20000), tone }, [
        'original_subject',
        'original_body',
      ]),
    },
    responses: { 200: { description: 'The follow-up', data: draft } },
    errors,
    handler: async (ctx) => ({
      data: await runMeteredWorkflow(ctx, outreachFollowUpEmailWorkflow, {
        workflowId: id('follow-up'),
        userId: userIdOf(ctx),
        args: [{ userId: userIdOf(ctx), ...ctx.body }],
      }),
    }),
  }),
];
