/**
 * Decisions on an email template's stream (`outreachtemplate-<id>`): create
 * (placeholders checked) and delete. Another user's or a deleted template is
 * "not found".
 */
import type { Decider, Stored } from '../decider';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import type { DomainEvent } from '../events';
import { PLACEHOLDERS, placeholdersIn, unknownPlaceholders } from './placeholders';

export interface TemplateState {
  template?: { user_id: string; deleted: boolean };
}

export type TemplateCommand =
  | {
      kind: 'create';
      template_id: string;
      user_id: string;
      name: string;
      subject: string;
      body: string;
      category: string | null;
    }
  | { kind: 'delete'; template_id: string; user_id: string };

/** 422 naming each unknown placeholder of subject and body (the known ones are listed in the message). */
export function checkPlaceholders(fields: { subject: string; body: string }): void {
  const known = Object.keys(PLACEHOLDERS)
    .map((p) => `{${p}}`)
    .join(', ');
  const issues = (['subject', 'body'] as const).flatMap((f) =>
    unknownPlaceholders(fields[f]).map((p) => ({
      location: 'body' as const,
      path: f,
      kind: 'constraint' as const,
      message: `unknown placeholder {${p}} in ${f}; known placeholders: ${known}`,
    })),
  );
  if (issues.length) throw new ValidationError(issues);
}

export const templateDecider: Decider<TemplateCommand, TemplateState> = {
  initialState: {},
  evolve(s, e: Stored) {
    if (e.type === 'OutreachTemplateCreated') return { template: { user_id: e.data.user_id, deleted: false } };
    if (e.type === 'OutreachTemplateDeleted' && s.template) return { template: { ...s.template, deleted: true } };
    return s;
  },
  decide(c, s): DomainEvent[] {
    if (c.kind === 'create') {
      if (s.template) throw new ConflictError('Template id already in use; retry');
      checkPlaceholders(c);
      return [
        {
          type: 'OutreachTemplateCreated',
          data: {
            template_id: c.template_id,
            user_id: c.user_id,
            name: c.name,
            subject: c.subject,
            body: c.body,
            category: c.category,
            placeholders: placeholdersIn(`${c.subject}\n${c.body}`),
          },
        },
      ];
    }
    const t = s.template;
    if (!t || t.user_id !== c.user_id || t.deleted) throw new NotFoundError('Template not found');
    return [{ type: 'OutreachTemplateDeleted', data: { template_id: c.template_id, user_id: c.user_id } }];
  },
};
