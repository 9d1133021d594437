/** The write decisions of identity, subscription and webhook endpoints: pure decide/evolve, no I/O. */
import { fold } from '../../../domain/decider';
import { apiKeyDecider, sessionDecider, userDecider } from '../../../domain/identity';
import { endpointDecider } from '../../../domain/webhooks/decide';
import { alertDecider } from '../../../domain/subscription/alerts';
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

  const self = { kind: 'user', id: 'u1' } as const;
  const admin = { kind: 'admin', id: 'a1' } as const;

  it("upgrades only by an administrator (a user's own upgrade is 402), refuses the plan already in force, and cancels to the end of the period", () => {
    const s = userDecider.evolve(userDecider.initialState, { ...user[0], recordedAt: '2026-11-01T00:00:00.000Z' });
    expect(() => userDecider.decide({ kind: 'change_subscription', plan: 'pro', now, actor: self }, s)).toThrow(
      expect.objectContaining({ kind: 'payment_required' }),
    );
    const [up] = userDecider.decide({ kind: 'change_subscription', plan: 'pro', now, actor: admin }, s);
    expect(up).toEqual({
      type: 'PlanChanged',
      data: { user_id: 'u1', plan: 'pro', previous_plan: 'free', started_at: now.toISOString(), changed_by: admin },
    });
    expect(() => userDecider.decide({ kind: 'change_subscription', plan: 'free', now, actor: self }, s)).toThrow(
      'Already subscribed',
    );
    const pro = userDecider.evolve(s, { ...up, recordedAt: now.toISOString() });
    expect(pro.startedAt).toBe(now.toISOString());
    expect(userDecider.decide({ kind: 'change_subscription', plan: 'basic', now, actor: self }, pro)).toEqual([
      {
        type: 'PlanChanged',
        data: { user_id: 'u1', plan: 'basic', previous_plan: 'pro', started_at: now.toISOString(), changed_by: self },
      },
    ]);
    expect(userDecider.decide({ kind: 'cancel_subscription', now, actor: self }, pro)).toEqual([
      {
        type: 'SubscriptionCancelled',
        data: {
          user_id: 'u1',
          plan: 'pro',
          cancelled_at: now.toISOString(),
          expires_at: '2026-12-01T00:00:00.000Z',
          changed_by: self,
        },
      },
    ]);
    expect(() => userDecider.decide({ kind: 'cancel_subscription', now, actor: self }, s)).toThrow(
      'The Free plan cannot be cancelled',
    );
  });

  it('applies a billing event once: a redelivery, or the plan already in force, writes nothing', () => {
    const s = userDecider.evolve(userDecider.initialState, { ...user[0], recordedAt: '2026-11-01T00:00:00.000Z' });
    const paid = { kind: 'billing_change', plan: 'pro', now, event_id: 'evt_1' } as const;
    const [up] = userDecider.decide(paid, s);
    expect(up).toEqual({
      type: 'PlanChanged',
      data: {
        user_id: 'u1',
        plan: 'pro',
        previous_plan: 'free',
        started_at: now.toISOString(),
        changed_by: { kind: 'billing', id: 'evt_1' },
        billing_event_id: 'evt_1',
      },
    });
    const pro = userDecider.evolve(s, { ...up, recordedAt: now.toISOString() });
    expect(pro.billingEvents).toEqual(['evt_1']);
    expect(userDecider.decide(paid, pro)).toEqual([]);
    expect(userDecider.decide({ ...paid, event_id: 'evt_2' }, pro)).toEqual([]); // Pro applies already
    const ended = userDecider.decide({ kind: 'billing_change', plan: 'free', now, event_id: 'evt_3' }, pro);
    expect(ended[0].data).toMatchObject({ plan: 'free', previous_plan: 'pro', changed_by: { kind: 'billing' } });
    expect(() => userDecider.decide(paid, userDecider.initialState)).toThrow('User not found');
  });

  it('creates a user once: a second create of the same id is a conflict', () => {
    const create = { kind: 'create', user_id: 'u1', plan: 'basic', role: 'admin', email: 'a@b.example' } as const;
    const events = userDecider.decide(create, userDecider.initialState);
    expect(events).toEqual([
      { type: 'UserCreated', data: { user_id: 'u1', plan: 'basic', role: 'admin', email: 'a@b.example' } },
    ]);
    expect(userDecider.decide({ ...create, email: undefined }, userDecider.initialState)[0].data).not.toHaveProperty(
      'email',
    );
    const s = fold(userDecider, events);
    expect(s.user).toEqual({ user_id: 'u1', plan: 'basic', role: 'admin', email: 'a@b.example' });
    expect(() => userDecider.decide(create, s)).toThrow(expect.objectContaining({ kind: 'conflict' }));
  });

  it('refuses commands on a user that does not exist', () => {
    expect(() =>
      userDecider.decide(
        { kind: 'set_plan', plan: 'pro', actor: { kind: 'operator', id: 'ops' } },
        userDecider.initialState,
      ),
    ).toThrow('User not found');
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

describe('session start', () => {
  const start = {
    kind: 'start',
    session_id: 's1',
    user_id: 'u1',
    token_hash: 'b'.repeat(64),
    expires_at: '2030-01-01T00:00:00.000Z',
    key_id: 'k1',
  } as const;

  it('starts a session on a new stream; the started session can be ended by its owner', () => {
    const events = sessionDecider.decide(start, sessionDecider.initialState);
    expect(events).toEqual([
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
    const s = fold(sessionDecider, events);
    expect(s).toMatchObject({ kind: 'session', id: 's1', user_id: 'u1', revoked: false });
    expect(sessionDecider.decide({ kind: 'end', user_id: 'u1' }, s)[0].type).toBe('SessionEnded');
  });

  it('refuses a second start of one session id (409), ended or not', () => {
    const s = fold(sessionDecider, sessionDecider.decide(start, sessionDecider.initialState));
    expect(() => sessionDecider.decide(start, s)).toThrow(expect.objectContaining({ kind: 'conflict' }));
    const ended = sessionDecider.evolve(s, sessionDecider.decide({ kind: 'end', user_id: 'u1' }, s)[0]);
    expect(() => sessionDecider.decide(start, ended)).toThrow(expect.objectContaining({ kind: 'conflict' }));
  });
});

describe('alert decisions', () => {
  const raised = (key: string, globalPosition: string) => ({
    type: 'AlertRaised' as const,
    data: {
      alert_key: key,
      user_id: 'u1',
      title: 't',
      message: 'm',
      severity: 'info' as const,
      alert_type: 'usage_threshold',
      billing_period: '2026-11',
    },
    globalPosition,
  });
  const s = fold(alertDecider, [raised('a', '41'), raised('b', '57')]);

  it('marks an alert of the stream as read once; the id is its AlertRaised global position', () => {
    const events = alertDecider.decide({ kind: 'mark_read', user_id: 'u1', alert_id: 57 }, s);
    expect(events).toEqual([{ type: 'AlertMarkedRead', data: { alert_id: 57, user_id: 'u1' } }]);
    const read = alertDecider.evolve(s, events[0]);
    expect(alertDecider.decide({ kind: 'mark_read', user_id: 'u1', alert_id: 57 }, read)).toEqual([]);
    expect(alertDecider.decide({ kind: 'mark_read', user_id: 'u1', alert_id: 41 }, read)).toHaveLength(1);
  });

  it("refuses an alert that is not in the stream (unknown, or raised on another user's stream) as not found", () => {
    for (const alert_id of [1, 42, 999999999])
      expect(() => alertDecider.decide({ kind: 'mark_read', user_id: 'u1', alert_id }, s)).toThrow(
        expect.objectContaining({ kind: 'not_found', message: 'Alert not found' }),
      );
    expect(() =>
      alertDecider.decide({ kind: 'mark_read', user_id: 'u1', alert_id: 1 }, alertDecider.initialState),
    ).toThrow('Alert not found');
  });

  it('ignores a read mark of an alert it never saw raised and events of other areas', () => {
    const after = alertDecider.evolve(s, { type: 'AlertMarkedRead', data: { alert_id: 5, user_id: 'u1' } });
    expect([...after.alerts.keys()]).toEqual([41, 57]);
    expect(alertDecider.evolve(s, { type: 'UserCreated', data: { user_id: 'u1', plan: 'free', role: 'user' } })).toBe(
      s,
    );
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
