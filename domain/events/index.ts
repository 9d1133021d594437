/**
 * The registry of every domain event: one union type, one table of
 * definitions. Adding an area = one file + one line here.
 */
import { AlertEvent, alertEvents } from './alerts';
import { TaskEvent, taskEvents } from './tasks';
import { UsageEvent, usageEvents } from './usage';
import { WebhookEvent, webhookEvents } from './webhooks';
import { IdentityEvent, identityEvents } from './identity';
import { BlogSectionEvent, blogSectionEvents } from './blog';
import { AnalysisEvent, analysisEvents } from './analysis';
import { SitebuilderEvent, sitebuilderEvents } from './sitebuilder';
import { ImageEvent, imageEvents } from './image';
import { OutreachEvent, outreachEvents } from './outreach';
import { WriterEvent, writerEvents } from './writers';
import { CalendarEvent, calendarEvents } from './calendar';
import { OAuthEvent, oauthEvents } from './oauth';
import { ContentEvent, contentEvents } from './content';
import { SeoEvent, seoEvents } from './seo';
import { IntegrationEvent, integrationEvents } from './integrations';
import { VideoEvent, videoEvents } from './video';
import { PodcastEvent, podcastEvents } from './podcast';
import { EventDefinition } from './types';

export type DomainEvent =
  | TaskEvent
  | UsageEvent
  | AlertEvent
  | WebhookEvent
  | IdentityEvent
  | BlogSectionEvent
  | AnalysisEvent
  | SitebuilderEvent
  | ImageEvent
  | OutreachEvent
  | WriterEvent
  | CalendarEvent
  | OAuthEvent
  | ContentEvent
  | SeoEvent
  | IntegrationEvent
  | VideoEvent
  | PodcastEvent;
export type EventType = DomainEvent['type'];
export type EventOfType<T extends EventType> = Extract<DomainEvent, { type: T }>;

export const EVENT_DEFINITIONS: Record<EventType, EventDefinition> = {
  ...taskEvents,
  ...usageEvents,
  ...alertEvents,
  ...webhookEvents,
  ...identityEvents,
  ...blogSectionEvents,
  ...analysisEvents,
  ...sitebuilderEvents,
  ...imageEvents,
  ...outreachEvents,
  ...writerEvents,
  ...calendarEvents,
  ...oauthEvents,
  ...contentEvents,
  ...seoEvents,
  ...integrationEvents,
  ...videoEvents,
  ...podcastEvents,
};

/** Every domain area (= Kafka topic suffix). */
export const EVENT_AREAS: string[] = [...new Set(Object.values(EVENT_DEFINITIONS).map((d) => d.area))].sort();

export function isEventType(t: string): t is EventType {
  return Object.prototype.hasOwnProperty.call(EVENT_DEFINITIONS, t);
}
