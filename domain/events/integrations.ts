/**
 * A user's interaction with an integration (Document 1's `user_action`
 * webhook; docs/content.md "Integration routes"): connecting or
 * disconnecting Search Console, importing or syncing performance data, and
 * calling the integration route POST /api/seo-analyzer. Stream
 * `integration-action-<action_id>`.
 */
import { EventDefinitions, openAllRequired } from './types';
import { nonEmptyString } from '../schema';

export type IntegrationEvent = {
  type: 'IntegrationActionRecorded';
  data: {
    action_id: string;
    user_id: string;
    /** `search_console`, `performance_import`, `seo_analyzer`. */
    integration: string;
    /** `connected`, `disconnected`, `imported`, `synced`, `analyzed`. */
    action: string;
    /** The route the user called. */
    route: string;
    details: Record<string, unknown>;
  };
};

export const integrationEvents: EventDefinitions<IntegrationEvent['type']> = {
  IntegrationActionRecorded: {
    area: 'integrations',
    version: 1,
    schema: openAllRequired({
      action_id: nonEmptyString,
      user_id: nonEmptyString,
      integration: nonEmptyString,
      action: nonEmptyString,
      route: nonEmptyString,
      details: { type: 'object' },
    }),
  },
};

export const integrationActionStream = (actionId: string) => `integration-action-${actionId}`;
