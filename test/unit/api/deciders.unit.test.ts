/** The write decisions of identity, subscription and webhook endpoints: pure decide/evolve, no I/O. */
import { fold } from '../../../domain/decider';
import { apiKeyDecider, sessionDecider, userDecider } from '../../../domain/identity';
import { endpointDecider } from '../../../domain/webhooks/decide';
import type { DomainEvent } from '../../../domain/events';

const now = new Date('2026-11-23T12:00:00.000Z');
const key = {
  key_id: 'k1',
  user_id: 'u1',
  name: 'ci',
  environment: 'production' as const,
  prefix: 'k1',
  key_hash: 'a'.repeat(64),
};
const created: DomainEvent = { type: 'ApiKeyCreated', data: key };

describe('API key decisions', () => {
  it('lets the owner rename, revoke and rotate a live key; anyone else gets not found', () => {
    const s = fold(apiKeyDecider, [created]);
    expect(apiKeyDecider.decide({ kind: 'rename', user_id: 'u1', name: 'new', now }, s)).toEqual([
      { type: 'ApiKeyRenamed', data: { key_id: 'k1', user_id: 'u1', name: 'new' } },
    ]);
    expect(() => apiKeyDecider.decide({ kind: 'revoke', user_id: 'u2', now }, s)).toThrow('API key not found');
    const revoked = fold(apiKeyDecider, [created, { type: 'ApiKeyRevoked', data: { key_id: 'k1', user_id: 'u1' } }]);
    expect(() => apiKeyDecider.decide({ kind: 'rename', user_id: 'u1', name: 'x', now }, revoked)).toThrow(
      'API key not found',
    );
  });

  it('rotates once: a key in its grace period cannot be rotated again (409), and its name is kept for the successor', () => {
    const renamed = fold(apiKeyDecider, [
      created,
      { type: 'ApiKeyRenamed', data: { key_id: 'k1', user_id: 'u1', name: 'deploy' } },
    ]);
    expect(renamed.name).toBe('deploy');
    const [rotation] = apiKeyDecider.decide(
      { kind: 'rotate', user_id: 'u1', now, new_key_id: 'k2', grace_until: '2026-11-24T12:00:00.000Z' },
      renamed,
    );
    const rotated = fold(apiKeyDecider, [created, rotation]);
    expect(() =>
      apiKeyDecider.decide(
        { kind: 'rotate', user_id: 'u1', now, new_key_id: 'k3', grace_until: '2026-11-24T12:00:00.000Z' },
        rotated,
      ),
    ).toThrow(expect.objectContaining({ kind: 'conflict' }));
  });
});

describe('user and subscription decisions', () => {
  const user: DomainEvent[] = [{ type: 'UserCreated', data: { user_id: 'u1', plan: 'free', role: 'user' } }];

  it('upgrades, refuses the plan already in force, and cancels to the end of the period', () => {
    const s = userDecider.evolve(userDecider.initialState, { ...user[0], recordedAt: '2026-11-01T00:00:00.000Z' });
    const [up] = userDecider.decide({ kind: 'change_subscription', plan: 'pro', now }, s);
    expect(up).toEqual({
      type: 'PlanChanged',
      data: { user_id: 'u1', plan: 'pro', previous_plan: 'free', started_at: now.toISOString() },
    });
    expect(() => userDecider.decide({ kind: 'change_subscription', plan: 'free', now }, s)).toThrow(
      'Already subscribed',
    );
    const pro = userDecider.evolve(s, { ...up, recordedAt: now.toISOString() });
    expect(pro.startedAt).toBe(now.toISOString());
    expect(userDecider.decide({ kind: 'cancel_subscription', now }, pro)).toEqual([
      {
        type: 'SubscriptionCancelled',
        data: { user_id: 'u1', plan: 'pro', cancelled_at: now.toISOString(), expires_at: '2026-12-01T00:00:00.000Z' },
      },
    ]);
    expect(() => userDecider.decide({ kind: 'cancel_subscription', now }, s)).toThrow(
      'The Free plan cannot be cancelled',
    );
  });

  it('refuses commands on a user that does not exist', () => {
    expect(() => userDecider.decide({ kind: 'set_plan', plan: 'pro' }, userDecider.initialState)).toThrow(
      'User not found',
    );
  });
});

describe('session decisions', () => {
  it("ends the owner's live session once", () => {
    const s = fold(sessionDecider, [
      {
        type: 'SessionStarted',
        data: {
          session_id: 's1',
          user_id: 'u1',
          token_hash: 'b'.repeat(64),
          expires_at: '2030-01-01T00:00:00.000Z',
          key_id: 'k1',
        },
      },
    ]);
    const [ended] = sessionDecider.decide({ kind: 'end', user_id: 'u1' }, s);
    expect(ended.type).toBe('SessionEnded');
    expect(() => sessionDecider.decide({ kind: 'end', user_id: 'u1' }, sessionDecider.evolve(s, ended))).toThrow(
      'Session not found',
    );
    expect(() => sessionDecider.decide({ kind: 'end', user_id: 'u2' }, s)).toThrow('Session not found');
  });
});

describe('webhook endpoint decisions', () => {
  const registered = fold(
    endpointDecider,
    endpointDecider.decide(
      {
        kind: 'register',
        endpoint_id: 'e1',
        user_id: 'u1',
        url: 'https://a.example/',
        events: ['quota.warning', 'quota.warning'],
        secret_hash: 'h',
        family: 'general',
      },
      undefined,
    ),
  );

  it('registers with de-duplicated, known event names and refuses unknown ones', () => {
    expect(registered).toMatchObject({ endpoint_id: 'e1', events: ['quota.warning'], enabled: true });
    expect(() =>
      endpointDecider.decide(
        {
          kind: 'register',
          endpoint_id: 'e2',
          user_id: 'u1',
          url: 'https://a.example/',
          events: ['no.such'],
          secret_hash: 'h',
          family: 'general',
        },
        undefined,
      ),
    ).toThrow('unknown event name');
  });

  it('updates only with something to change, only for the owner, and refuses deliveries to a disabled endpoint', () => {
    expect(() => endpointDecider.decide({ kind: 'update', user_id: 'u1' }, registered)).toThrow('nothing to change');
    expect(() => endpointDecider.decide({ kind: 'delete', user_id: 'u2' }, registered)).toThrow('Webhook not found');
    const disabled = fold(endpointDecider, [
      ...endpointDecider.decide(
        {
          kind: 'register',
          endpoint_id: 'e1',
          user_id: 'u1',
          url: 'https://a.example/',
          events: ['quota.warning'],
          secret_hash: 'h',
          family: 'general',
        },
        undefined,
      ),
      { type: 'WebhookDisabled', data: { endpoint_id: 'e1', user_id: 'u1', reason: '410 Gone' } },
    ]);
    expect(() =>
      endpointDecider.decide(
        {
          kind: 'request_delivery',
          user_id: 'u1',
          delivery_id: 'd1',
          event_type: 'webhook.test',
          payload: {},
          reason: 'test',
        },
        disabled,
      ),
    ).toThrow('disabled');
    expect(
      endpointDecider.decide(
        {
          kind: 'request_delivery',
          user_id: 'u1',
          delivery_id: 'd1',
          event_type: 'webhook.test',
          payload: {},
          reason: 'test',
        },
        registered,
      )[0].type,
    ).toBe('WebhookDeliveryRequested');
  });
});
