/**
 * Records a user's interaction with an integration (IntegrationActionRecorded),
 * which the webhook catalogue turns into the `user_action` event of Document 1.
 * docs/content.md "Integration routes" lists who calls it.
 */
import { randomUUID } from 'node:crypto';
import { factsDecider } from '../../domain/decider';
import { IntegrationEvent, integrationActionStream } from '../../domain/events/integrations';
import type { StoreTx } from '../../infra/eventstore';
import { handleCommands, StreamCommand, streamCommand } from '../../infra/eventstore/command';
import { requestMeta, userIdOf } from '../kernel/handler';
import type { RouteCtx } from '../kernel/types';

type AnyCtx = RouteCtx;

export interface IntegrationAction {
  integration: string;
  action: string;
  details: Record<string, unknown>;
}

/** An action is a fact: one IntegrationActionRecorded in a stream of its own. */
const actionFacts = factsDecider<IntegrationEvent>();

/** The command recording an action (to run with other commands as one write: handleCommands). */
export function integrationActionCommand(ctx: AnyCtx, a: IntegrationAction): StreamCommand<IntegrationEvent[], null> {
  const actionId = randomUUID();
  return streamCommand({
    streamId: integrationActionStream(actionId),
    decider: actionFacts,
    expect: 'new',
    command: [
      {
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
    ],
  });
}

/** Records the action (inside `tx` when given). */
export async function recordIntegrationAction(ctx: AnyCtx, a: IntegrationAction, tx?: StoreTx): Promise<void> {
  await handleCommands(tx ?? ctx.deps.store, [integrationActionCommand(ctx, a)], { metadata: requestMeta(ctx) });
}
