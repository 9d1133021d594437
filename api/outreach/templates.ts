/**
 * Email templates (Document 3: /emails/templates). Subject and body carry
 * `{placeholders}`; a template naming a placeholder the platform does not
 * know is refused with 422, one item per unknown placeholder
 * (domain/outreach/placeholders.ts lists the known ones).
 */
import { randomUUID } from 'node:crypto';
import { NotFoundError } from '../../domain/errors';
import { getTemplate, listTemplates } from '../../projections/outreach';
import { defineRoute, RouteDef } from '../kernel/registry';
import { requestMeta, settle, userIdOf } from '../kernel/handler';
import { arr } from '../kernel/schema';
import { runTemplateCommand } from './commands';
import { BASE, tags, templateBody, templateParams, templateSchema } from './schemas';

const T = `${BASE}/emails/templates`;

export const templateRoutes: RouteDef[] = [
  defineRoute<{ name: string; subject: string; body: string; category?: string }>({
    method: 'post',
    path: T,
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'Save an email template (unknown placeholders are refused with 422, each named)',
    description:
      'Subject and body may use the known placeholders ({lead_name} or {name}, {first_name}, {website}, {website_url}, {website_title}, {contact_email}, {topic}, {content_topic}, {sender_name}, {sender_email}, {campaign_name}); anything else in braces is refused with 422, one item per unknown placeholder. The answer lists the `placeholders` used. POST /emails/generate with `template_id` writes from it.',
    request: { body: templateBody },
    responses: { 201: { description: 'The template with the placeholders it uses', data: templateSchema } },
    handler: async (ctx) => {
      const id = randomUUID();
      const r = await runTemplateCommand(
        ctx.deps.store,
        {
          kind: 'create',
          template_id: id,
          user_id: userIdOf(ctx),
          name: ctx.body.name.trim(),
          subject: ctx.body.subject,
          body: ctx.body.body,
          category: ctx.body.category?.trim() || null,
        },
        requestMeta(ctx),
      );
      await settle(ctx, 'outreach', r.events);
      return { status: 201, data: await getTemplate(ctx.deps.db, userIdOf(ctx), id) };
    },
  }),
  defineRoute({
    method: 'get',
    path: T,
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: "The caller's templates, newest first",
    description:
      "Every template of the caller, deleted ones excluded; templates are the caller's own, not per workspace.",
    responses: { 200: { description: 'Templates', data: arr(templateSchema) } },
    handler: async (ctx) => ({ data: await listTemplates(ctx.deps.db, userIdOf(ctx)) }),
  }),
  defineRoute<unknown, unknown, { template_id: string }>({
    method: 'get',
    path: `${T}/{template_id}`,
    auth: 'user',
    tags,
    successBody: 'bare',
    summary: 'One template',
    description:
      "The template with its subject, body, category and the placeholders it uses. Another user's, a deleted or an unknown template is 404.",
    request: { params: templateParams },
    responses: { 200: { description: 'The template', data: templateSchema } },
    handler: async (ctx) => {
      const t = await getTemplate(ctx.deps.db, userIdOf(ctx), ctx.params.template_id);
      if (!t) throw new NotFoundError('Template not found');
      return { data: t };
    },
  }),
  defineRoute<unknown, unknown, { template_id: string }>({
    method: 'delete',
    path: `${T}/{template_id}`,
    auth: 'user',
    tags,
    summary: 'Delete a template',
    description:
      "The template is 404 from then on and no longer listed; emails already written from it are unaffected. Another user's or an already deleted template is 404.",
    request: { params: templateParams },
    responses: { 204: { description: 'Deleted' } },
    handler: async (ctx) => {
      const r = await runTemplateCommand(
        ctx.deps.store,
        { kind: 'delete', template_id: ctx.params.template_id, user_id: userIdOf(ctx) },
        requestMeta(ctx),
      );
      await settle(ctx, 'outreach', r.events);
      return { status: 204 };
    },
  }),
];
