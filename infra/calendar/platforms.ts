/**
 * Publishing to external platforms: one adapter per platform (profnet,
 * socialnet, ...). None is configured today: the platform has no credentials
 * for any network, so an event due on a platform without an adapter is
 * marked published locally (`mode: "local"` in the event and the API) and
 * its `event.published` webhook fires, which is how integrations publish it
 * themselves. An adapter added here is built in workers/adapters.ts from its
 * configuration and handed to the calendar activities.
 */
export interface PublishRequest {
  event_id: string;
  calendar_id: string;
  platform: string;
  title: string;
  content: Record<string, unknown>;
  /** The same for every retry of one publication: the adapter sends it as the platform's idempotency key. */
  idempotency_key: string;
}

export interface PlatformPublisher {
  publish(req: PublishRequest): Promise<{ external_id: string }>;
}

/** Adapters by platform value; a platform missing here publishes locally. */
export type PlatformPublishers = Partial<Record<string, PlatformPublisher>>;
