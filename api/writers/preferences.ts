/**
 * GET, POST and PUT /api/profnet/user/preferences (Document 2 "User
 * preferences"). Saves are events decided by preferencesDecider (POST
 * replaces, PUT merges and null clears); reads come from the
 * writer-preferences projection, which a save waits for, so the next
 * generation of the user already takes the new defaults.
 */
import { writerPreferencesStream } from '../../domain/events/writers';
import { emptyPreferences, preferencesDecider, PreferencesInput } from '../../domain/writers/preferences';
import { handleCommand } from '../../infra/eventstore/command';
import { getWriterPreferences } from '../../projections/writer-preferences';
import { requestMeta, settle, userIdOf } from '../kernel/handler';
import { defineRoute, HandlerCtx, RouteDef } from '../kernel/registry';
import { PREFIX, TAG } from './common';
import { preferencesSchema } from './responses';
import { preferencesBody, preferencesPatchBody } from './schemas';

const path = `${PREFIX.profnet}/user/preferences`;
const tags = [TAG.profnet];

async function current(ctx: HandlerCtx<unknown>, changed?: string[]) {
  const r = await getWriterPreferences(ctx.deps.db, userIdOf(ctx));
  return {
    success: true,
    preferences: r?.preferences ?? emptyPreferences(),
    saved: Boolean(r),
    version: r?.versions ?? 0,
    updated_at: r?.updated_at ?? null,
    ...(changed ? { changed } : {}),
  };
}

async function save(ctx: HandlerCtx<PreferencesInput>, kind: 'replace' | 'merge') {
  const userId = userIdOf(ctx);
  const r = await handleCommand(
    ctx.deps.store,
    writerPreferencesStream(userId),
    preferencesDecider,
    { kind, user_id: userId, preferences: ctx.body },
    { metadata: requestMeta(ctx) },
  );
  await settle(ctx, 'writer-preferences', r.events);
  const saved = r.decided[0];
  const changed = saved?.type === 'WriterPreferencesSaved' ? saved.data.changed : [];
  return { status: kind === 'replace' && !r.state.exists ? 201 : 200, data: await current(ctx, changed) };
}

const responses = { 200: { description: 'The stored preferences', data: preferencesSchema } };

export const writerPreferenceRoutes: RouteDef[] = [
  defineRoute({
    method: 'get',
    path,
    auth: 'user',
    successBody: 'bare',
    tags,
    summary: "The caller's writer preferences (empty, saved: false, until the first save)",
    description:
      'The defaults every later generation of the caller takes for the fields its request leaves out (content_defaults, multimedia_defaults, brand_settings). version counts the saves that changed something; updated_at is null until the first save. Both writers read these preferences; only the professional-network writer has the routes.',
    responses,
    handler: async (ctx) => ({ data: await current(ctx) }),
  }),
  defineRoute<PreferencesInput>({
    method: 'post',
    path,
    auth: 'user',
    successBody: 'bare',
    tags,
    summary: 'Save writer preferences, replacing the stored ones (fields left out are cleared)',
    description:
      "Applied as defaults to every later generation of the user: a field the generation request leaves out takes the preference (listed in the result's defaults_applied). 201 on the first save, 200 after.",
    request: { body: preferencesBody },
    responses: { ...responses, 201: { description: 'Saved for the first time', data: preferencesSchema } },
    errors: { 409: 'Changed by another request at the same time; retry' },
    handler: (ctx) => save(ctx, 'replace'),
  }),
  defineRoute<PreferencesInput>({
    method: 'put',
    path,
    auth: 'user',
    successBody: 'bare',
    tags,
    summary: 'Update writer preferences: only the given fields change; null clears a field or a group',
    description:
      'Merges the body into the stored preferences (POST replaces them whole instead). `changed` lists the dotted fields that changed (content_defaults.tone, …); once saved, a body that changes nothing appends no event and keeps the version. Always 200, also before the first save. 409 when another save changed them at the same time: retry.',
    request: { body: preferencesPatchBody },
    responses,
    errors: { 409: 'Changed by another request at the same time; retry' },
    handler: (ctx) => save(ctx, 'merge'),
  }),
];
