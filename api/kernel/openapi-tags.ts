/**
 * The OpenAPI document's tags: every tag an operation carries, described, in the order of the specification's areas
 * (Document 1: the core, developer, subscription and webhook routes; Document 2: the media studios, the blog writer
 * and the writers; Document 3: the calendar and backlink outreach), and grouped by document (`x-tagGroups`, read by
 * Redoc and most documentation renderers). A route's tag that is missing here fails the document's unit test.
 */
export interface TagInfo {
  name: string;
  description: string;
}

export const TAG_GROUPS: { name: string; tags: TagInfo[] }[] = [
  {
    name: 'Core, developer, subscription and webhooks (Document 1)',
    tags: [
      { name: 'health', description: 'Whether the platform and each of its services and processes are up.' },
      {
        name: 'settings',
        description: 'API keys, sessions and the user preferences the generating routes fall back to.',
      },
      {
        name: 'content generation',
        description: 'General generation under `/api` (blog posts, social posts, emails, ads) as tasks.',
      },
      { name: 'content strategy', description: 'Topic ideas and content plans from a niche and its audience.' },
      { name: 'research', description: 'Sources for a topic from the research corpus and the configured search.' },
      { name: 'seo', description: 'SEO analysis, keyword research and performance of published content.' },
      { name: 'fact check', description: 'Claims of a text checked against their sources.' },
      { name: 'tasks', description: 'The record of any background task: status, progress, result or error.' },
      { name: 'developer', description: 'The developer family under `/v1`: who the credential belongs to.' },
      { name: 'developer content', description: 'Generation and stored content with versions under `/v1/content`.' },
      { name: 'developer personas', description: 'Writing personas applied to `/v1` generation.' },
      { name: 'developer analytics', description: 'Usage of the developer API by day, route and model.' },
      {
        name: 'subscription',
        description: 'Plans, usage against their limits, alerts, and billing under `/api/subscription`.',
      },
      {
        name: 'webhooks',
        description: 'Endpoints that receive signed event deliveries (Standard Webhooks), and their delivery log.',
      },
    ],
  },
  {
    name: 'Media studios, blog writer and writers (Document 2)',
    tags: [
      { name: 'image studio', description: 'Images generated, edited, upscaled and served (`/api/image-studio`).' },
      {
        name: 'blog writer',
        description: 'Research, outline and drafting of a blog post as tasks, and section edits (`/api/blog`).',
      },
      {
        name: 'podcast',
        description: 'Podcast projects from idea to script, speech, visuals, video and dubbing (`/api/podcast`).',
      },
      { name: 'video studio', description: 'Video plans, scenes and renders with captions (`/api/videonet`).' },
      { name: 'media tasks', description: 'Cancelling a running media task of any studio.' },
      { name: 'site publishing', description: 'Publishing posts to a connected site builder (`/api/sitebuilder`).' },
      {
        name: 'professional-network writer',
        description: 'Posts, articles and more for the professional network (`/api/profnet`).',
      },
      {
        name: 'social-network writer',
        description: 'Posts, reels, carousels, ads and more for the social network (`/api/socialnet-writer`).',
      },
    ],
  },
  {
    name: 'Calendar and backlink outreach (Document 3)',
    tags: [
      {
        name: 'calendar',
        description: 'Content calendars, events, campaigns, scheduling and OAuth clients (`/v1/calendar`).',
      },
      {
        name: 'backlink outreach',
        description: 'Campaigns, leads, emails, sending and replies (`/api/v1/backlink-outreach`, session token).',
      },
    ],
  },
  {
    name: 'Reference',
    tags: [{ name: 'docs', description: 'This document and its rendered reference page.' }],
  },
];

/** Every tag, in document order. */
export const TAGS: TagInfo[] = TAG_GROUPS.flatMap((g) => g.tags);
