/**
 * Records a user's interaction with an integration (IntegrationActionRecorded),
 * which the webhook catalogue turns into the `user_action` event of Document 1.
 * docs/content.md "Integration routes" lists who calls it.
 */
import { randomUUID } from 'node:crypto';
import { integrationActionStream } from '../../domain/events/integrations';
import type { NewEvent, StoreTx } from '../../infra/eventstore';
import { requestMeta, userIdOf } from '../kernel/handler';
import type { HandlerCtx } from '../kernel/types';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyCtx = HandlerCtx<any, any, any>;

export interface IntegrationAction {
  integration: string;
  action: string;
  details: Record<string, unknown>;
}

/** The event of an action (to append with other events in one transaction). */
export function integrationActionEvent(ctx: AnyCtx, a: IntegrationAction): { streamId: string; event: NewEvent } {
  const actionId = randomUUID();
  return {
    streamId: integrationActionStream(actionId),
    event: {
      type: 'IntegrationActionRecorded',
      data: {
        action_id: actionId,
        user_id: userIdOf(ctx),
        integration: a.integration,
        action: a.action,
        route: `${ctx.req.method} ${ctx.req.route?.path ?? ctx.req.path}`.replace(/:([A-Za-z0-9_]+)/g, '{$1}'),
        details: a.details,
      },
    },
  };
}

/** Appends the action's event (inside `tx` when given). */
export async function recordIntegrationAction(ctx: AnyCtx, a: IntegrationAction, tx?: StoreTx): Promise<void> {
  const { streamId, event } = integrationActionEvent(ctx, a);
  await (tx ?? ctx.deps.store).append(streamId, [event], 'no_stream', requestMeta(ctx));
}
