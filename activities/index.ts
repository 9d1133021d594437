/**
 * Activities get their dependencies from this factory, never from globals, so
 * the worker wires real adapters and tests can wire their own. Every activity
 * is wrapped so its failures carry a code of the failure table
 * (activities/failures.ts, domain/failures.ts).
 */
import type { Logger } from 'pino';
import { createWebhookActivities, WebhookActivityDeps } from './webhooks';
import { createTaskActivities, TaskActivityDeps } from './tasks';
import { BlogActivityDeps, createBlogActivities } from './blog';
import { BlogSyncActivityDeps, createBlogSyncActivities } from './blog-sync';
import { createSitebuilderActivities, SitebuilderActivityDeps } from './sitebuilder';
import { createImageActivities, ImageActivityDeps } from './image';
import { createOutreachSendActivities, OutreachSendDeps } from './outreach-send';
import { createOutreachWritingActivities, OutreachWritingDeps } from './outreach-writing';
import { createOutreachReplyActivities } from './outreach-replies';
import { createOutreachDiscoveryActivities } from './outreach-discovery';
import type { SiteIndex } from '../infra/outreach/sites';
import type { MailboxPollState } from '../infra/outreach';
import type { ResearchProvider } from '../infra/research';
import { createWriterActivities, WriterActivityDeps } from './writers';
import { CalendarActivityDeps, createCalendarActivities } from './calendar';
import { ContentActivityDeps, createContentActivities } from './content';
import { createKeywordActivities, KeywordActivityDeps } from './keywords';
import { createPerformanceActivities, PerformanceActivityDeps } from './performance';
import { createVideoActivities, VideoActivityDeps } from './video';
import { createVideoRenderActivities, VideoRenderActivityDeps } from './video-render';
import { CopyActivityDeps, createCopyActivities } from './copy';
import { createPodcastActivities, PodcastActivityDeps } from './podcast';
import { createPodcastMediaActivities } from './podcast-media';
import type { PodcastMediaActivityDeps } from './podcast-media/kit';
import { withFailureCodes } from './failures';

export interface ActivityDeps {
  logger: Logger;
  /** Webhook deliveries (activities/webhooks.ts); absent = those activities are not registered. */
  webhooks?: WebhookActivityDeps;
  /** Task lifecycle events (activities/tasks.ts). */
  tasks?: TaskActivityDeps;
  /** Blog writer (activities/blog.ts): the AI gateway and the research provider. */
  blog?: BlogActivityDeps;
  /** Synchronous blog edits (activities/blog-sync.ts): gateway, research and the event store. */
  blogSync?: BlogSyncActivityDeps;
  /** Site publishing (activities/sitebuilder.ts): OAuth client, REST adapter, token store, media rules. */
  sitebuilder?: SitebuilderActivityDeps;
  /** Image studio (activities/image.ts): storage, image vendors, the text gateway, the usage meter, the store. */
  image?: ImageActivityDeps;
  /** Backlink outreach (activities/outreach-*.ts): policy, ledger, mail, gateway, research. */
  outreach?: OutreachSendDeps &
    OutreachWritingDeps & {
      research: ResearchProvider;
      pollState: MailboxPollState;
      sites: SiteIndex;
    };
  /** Professional- and social-network writers (activities/writers.ts): gateway, research, store, batch notifications. */
  writers?: WriterActivityDeps;
  /** Content calendar (activities/calendar.ts): publishing timers, generation. */
  calendar?: CalendarActivityDeps;
  /** Content generation (activities/content.ts): gateway, research and the event store. */
  content?: ContentActivityDeps;
  /** Keyword research (activities/keywords.ts): the corpus, the keyword vendor (if configured) and the usage meter. */
  keywords?: KeywordActivityDeps;
  /** SEO performance data (activities/performance.ts): event store, users' credentials, Search Console. */
  performance?: PerformanceActivityDeps;
  /** Video studio (activities/video.ts): plan drafting, render records, metering, clean-up. */
  video?: VideoActivityDeps;
  /** Media engine renders (activities/video-render.ts): scenes and assembly. */
  videoRender?: VideoRenderActivityDeps;
  /** Short copy (activities/copy.ts): the AI gateway. */
  copy?: CopyActivityDeps;
  /** Podcast maker text work (activities/podcast.ts): gateway, research, the event store. */
  podcast?: PodcastActivityDeps;
  /** Podcast maker media work (activities/podcast-media.ts): engine, storages, translator, dubbing speech. */
  podcastMedia?: PodcastMediaActivityDeps;
}

export function createActivities(deps: ActivityDeps) {
  return withFailureCodes({
    ...(deps.webhooks ? createWebhookActivities(deps.webhooks) : {}),
    ...(deps.tasks ? createTaskActivities(deps.tasks) : {}),
    ...(deps.blog ? createBlogActivities(deps.blog) : {}),
    ...(deps.blogSync ? createBlogSyncActivities(deps.blogSync) : {}),
    ...(deps.sitebuilder ? createSitebuilderActivities(deps.sitebuilder) : {}),
    ...(deps.image ? createImageActivities(deps.image) : {}),
    ...(deps.outreach ? createOutreachSendActivities(deps.outreach) : {}),
    ...(deps.outreach ? createOutreachWritingActivities(deps.outreach) : {}),
    ...(deps.outreach ? createOutreachReplyActivities(deps.outreach) : {}),
    ...(deps.outreach ? createOutreachDiscoveryActivities(deps.outreach) : {}),
    ...(deps.writers ? createWriterActivities(deps.writers) : {}),
    ...(deps.calendar ? createCalendarActivities(deps.calendar) : {}),
    ...(deps.content ? createContentActivities(deps.content) : {}),
    ...(deps.keywords ? createKeywordActivities(deps.keywords) : {}),
    ...(deps.performance ? createPerformanceActivities(deps.performance) : {}),
    ...(deps.video ? createVideoActivities(deps.video) : {}),
    ...(deps.videoRender ? createVideoRenderActivities(deps.videoRender) : {}),
    ...(deps.copy ? createCopyActivities(deps.copy) : {}),
    ...(deps.podcast ? createPodcastActivities(deps.podcast) : {}),
    ...(deps.podcastMedia ? createPodcastMediaActivities(deps.podcastMedia) : {}),
    /** No-op round trip (smoke test, benchmark ceiling). */
    async echo(message: string): Promise<string> {
      return message;
    },
  });
}

export type Activities = ReturnType<typeof createActivities>;
