/**
 * The text-producing routes the content evaluation sends each brief through (docs/quality.md), one entry per
 * route: how a brief becomes that route's request — only through the fields the route has, as a client written
 * from the spec would send them — and where the text, its hashtags and its references are in the answer.
 * What a route cannot be told (a route without key points, a CTA flag without its text) is not held against it.
 */
import { call, Client, must } from './client';
import { BLOG_ROUTES } from './blog-routes';
import type { EvalRoute } from './eval-route';
import { SCRIPT_ROUTES } from './script-routes';
import { SOCIAL_ROUTES } from './social-routes';

export const ROUTES: EvalRoute[] = [...BLOG_ROUTES, ...SOCIAL_ROUTES, ...SCRIPT_ROUTES];

/** A calendar for the calendar routes (one per run). */
export async function createCalendar(c: Client): Promise<string> {
  const j = must(await call(c, 'POST', '/v1/calendar/calendars', { name: 'Content evaluation' }), 'calendar');
  return j.id as string;
}
