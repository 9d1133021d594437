/**
 * Developer API personas CRUD (`/v1/personas`): events on stream
 * `persona-<id>` decided by domain/content/persona.ts, read from the personas
 * projection. Fields (our design; the spec shows none): name (required),
 * description, age_range, profession, industry, goals, pain_points,
 * preferred_channels, tone, notes. PUT changes the fields it names (`null`
 * clears an optional one). Another user's persona is 404.
 */
import { randomUUID } from 'node:crypto';
import { NotFoundError } from '../../domain/errors';
import { personaStream } from '../../domain/events/content';
import type { PersonaFields } from '../../domain/events/content';
import { personaDecider } from '../../domain/content/persona';
import { handleCommand } from '../../infra/eventstore/command';
import { getPersona, listPersonas } from '../../projections/personas';
import { requestMeta, settle, userIdOf } from '../kernel/handler';
import { defineRoute, RouteCtx, RouteDef } from '../kernel/registry';
import { allRequired, arr, int, nullable, params, str, text, uuid, withRequired } from '../kernel/schema';
import { words } from '../content/schemas';

const tags = ['developer personas'];
const fields = {
  name: text(100, { pattern: '\\S' }),
  description: str(1000),
  age_range: str(40),
  profession: str(100),
  industry: str(100),
  goals: words(20, 200),
  pain_points: words(20, 200),
  preferred_channels: words(20, 100),
  tone: str(100),
  notes: str(2000),
};
const personaSchema = withRequired(
  {
    persona_id: { type: 'string' },
    ...fields,
    version: int,
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
  ['persona_id', 'name', 'version', 'created_at', 'updated_at'],
);
const idParams = params({ persona_id: uuid });

async function read(ctx: RouteCtx, personaId: string) {
  const p = await getPersona(ctx.deps.db, userIdOf(ctx), personaId);
  if (!p) throw new NotFoundError('Persona not found');
  return p;
}

export const developerPersonaRoutes: RouteDef[] = [
  defineRoute({
    method: 'get',
    path: '/v1/personas',
    auth: 'user',
    tags,
    summary: "The caller's personas, oldest first",
    description:
      'Every live persona of the caller (deleted ones are left out), unpaged. Personas are stored only through POST /v1/personas; the ones POST /api/content-strategy/personas develops are not kept unless posted here.',
    responses: { 200: { description: 'The personas', data: arr(personaSchema) } },
    handler: async (ctx) => ({ data: await listPersonas(ctx.deps.db, userIdOf(ctx)) }),
  }),
  defineRoute<PersonaFields>({
    method: 'post',
    path: '/v1/personas',
    auth: 'user',
    tags,
    summary: 'Create a persona',
    description:
      'Stores a persona (name required; the other fields optional) at version 1 and answers 201 with it, persona_id included. Honours an Idempotency-Key header: a retry with the same key and body gets the first answer.',
    request: { body: withRequired(fields, ['name']) },
    responses: { 201: { description: 'The persona', data: personaSchema } },
    handler: async (ctx) => {
      const personaId = randomUUID();
      const r = await handleCommand(
        ctx.deps.store,
        personaStream(personaId),
        personaDecider,
        { kind: 'create', persona_id: personaId, user_id: userIdOf(ctx), persona: ctx.body },
        { metadata: requestMeta(ctx) },
      );
      await settle(ctx, 'personas', r.events);
      return { status: 201, data: await read(ctx, personaId) };
    },
  }),
  defineRoute<unknown, unknown, { persona_id: string }>({
    method: 'get',
    path: '/v1/personas/{persona_id}',
    auth: 'user',
    tags,
    summary: 'A persona',
    description: "Another user's, a deleted and an unknown persona are 404.",
    request: { params: idParams },
    responses: { 200: { description: 'The persona', data: personaSchema } },
    handler: async (ctx) => ({ data: await read(ctx, ctx.params.persona_id) }),
  }),
  defineRoute<Record<string, unknown>, unknown, { persona_id: string }>({
    method: 'put',
    path: '/v1/personas/{persona_id}',
    auth: 'user',
    tags,
    summary: 'Update a persona: the fields given replace the stored ones (null clears an optional field)',
    description:
      "Fields left out stay as they are; an array given replaces the stored one whole. name cannot be cleared (null: 400). A change raises `version` by one; a body that changes nothing answers the persona as it is, same version. Another user's, a deleted and an unknown persona are 404.",
    request: {
      params: idParams,
      body: withRequired(
        Object.fromEntries(Object.entries(fields).map(([k, s]) => [k, k === 'name' ? s : nullable(s)])),
        [],
        {
          minProperties: 1,
        },
      ),
    },
    responses: { 200: { description: 'The persona after the change', data: personaSchema } },
    errors: { 409: 'A concurrent change of the persona (retry)' },
    handler: async (ctx) => {
      const known = Object.fromEntries(Object.entries(ctx.body).filter(([k]) => k in fields));
      const r = await handleCommand(
        ctx.deps.store,
        personaStream(ctx.params.persona_id),
        personaDecider,
        { kind: 'update', user_id: userIdOf(ctx), changes: known },
        { metadata: requestMeta(ctx) },
      );
      await settle(ctx, 'personas', r.events);
      return { data: await read(ctx, ctx.params.persona_id) };
    },
  }),
  defineRoute<unknown, unknown, { persona_id: string }>({
    method: 'delete',
    path: '/v1/personas/{persona_id}',
    auth: 'user',
    tags,
    summary: 'Delete a persona',
    description:
      "Records PersonaDeleted: the persona answers 404 from then on and the list leaves it out. Another user's, an already deleted and an unknown persona are 404.",
    request: { params: idParams },
    responses: {
      200: { description: 'Deleted', data: allRequired({ persona_id: { type: 'string' }, deleted: { const: true } }) },
    },
    errors: { 409: 'A concurrent change of the persona (retry)' },
    handler: async (ctx) => {
      const r = await handleCommand(
        ctx.deps.store,
        personaStream(ctx.params.persona_id),
        personaDecider,
        { kind: 'delete', user_id: userIdOf(ctx) },
        { metadata: requestMeta(ctx) },
      );
      await settle(ctx, 'personas', r.events);
      return { data: { persona_id: ctx.params.persona_id, deleted: true } };
    },
  }),
];
