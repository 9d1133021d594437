/**
 * Developer family (`/v1`) routes of the API core: who am I. Shows the
 * caller's user id, plan, role, credential and the rate windows that apply
 * to it; the rest of the developer API arrives with its feature issues.
 */
import { PLANS, RATE_SCHEMES, rateWindows } from '../../domain/plans';
import { defineRoute, RouteDef } from '../kernel/registry';

const window = {
  type: 'object',
  properties: { name: { type: 'string' }, seconds: { type: 'integer' }, limit: { type: 'integer' } },
  required: ['name', 'seconds', 'limit'],
};

export const developerRoutes: RouteDef[] = [
  defineRoute({
    method: 'get',
    path: '/v1/me',
    auth: 'user',
    tags: ['developer'],
    summary: 'The caller: user, plan, credential and rate windows',
    description:
      'Who the credential of the request is: user id, role, plan, and the credential itself (kind api_key, session or oauth, its id, and environment development or production). rate_limits gives, for every rate scheme (general, developer, calendar, integration, status), the windows that apply to this plan and environment, overrides applied (a development key gets a share of each limit). Changes nothing.',
    responses: {
      200: {
        description: 'Caller identity',
        data: {
          type: 'object',
          properties: {
            user_id: { type: 'string' },
            role: { enum: ['user', 'admin'] },
            plan: {
              type: 'object',
              properties: { id: { type: 'integer' }, name: { type: 'string' } },
              required: ['id', 'name'],
            },
            credential: {
              type: 'object',
              properties: { kind: { type: 'string' }, id: { type: 'string' }, environment: { type: 'string' } },
              required: ['kind', 'id', 'environment'],
            },
            rate_limits: { type: 'object', additionalProperties: { type: 'array', items: window } },
          },
          required: ['user_id', 'role', 'plan', 'credential', 'rate_limits'],
        },
      },
    },
    handler: ({ caller, deps }) => {
      const c = caller!;
      const plan = PLANS[c.plan];
      return {
        data: {
          user_id: c.userId,
          role: c.role,
          plan: { id: plan.id, name: plan.name },
          credential: { kind: c.credential, id: c.credentialId, environment: c.environment },
          rate_limits: Object.fromEntries(
            RATE_SCHEMES.map((s) => [s, rateWindows(c.plan, s, c.environment, deps.settings.rate)]),
          ),
        },
      };
    },
  }),
];
