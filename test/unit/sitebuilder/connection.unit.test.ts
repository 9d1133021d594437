/** The connection decider: state checks (mismatch, single use, expiry), connect, refresh, disconnect. */
import { fold } from '../../../domain/decider';
import type { DomainEvent } from '../../../domain/events';
import { ValidationError, NotFoundError } from '../../../domain/errors';
import { SitebuilderCommand, sitebuilderDecider, SitebuilderState } from '../../../domain/sitebuilder/connection';

const U = 'user-1';
const T0 = new Date('2030-01-01T00:00:00Z');
const at = (s: number) => new Date(T0.getTime() + s * 1000);
const hash = (c: string) => c.repeat(64);

function run(events: DomainEvent[], c: SitebuilderCommand): { events: DomainEvent[]; state: SitebuilderState } {
  const state = fold(
    sitebuilderDecider,
    events.map((e) => ({ ...e, recordedAt: T0.toISOString() })),
  );
  return { events: sitebuilderDecider.decide(c, state), state };
}

const started = (id: string, h: string, expiresInS = 600): DomainEvent => ({
  type: 'SitebuilderAuthorizationStarted',
  data: {
    user_id: U,
    authorization_id: id,
    state_hash: h,
    redirect_uri: 'https://app/cb',
    scopes: [],
    expires_at: at(expiresInS).toISOString(),
  },
});
const consumed = (id: string): DomainEvent => ({
  type: 'SitebuilderAuthorizationConsumed',
  data: { user_id: U, authorization_id: id },
});
const connected = (cid: string, aid = 'a1'): DomainEvent => ({
  type: 'SitebuilderConnected',
  data: {
    user_id: U,
    connection_id: cid,
    authorization_id: aid,
    scopes: ['blog.manage'],
    site_name: null,
    site_url: null,
    access_expires_at: at(3600).toISOString(),
  },
});

const issue = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationError);
    return (e as ValidationError).issues[0];
  }
  throw new Error('expected a ValidationError');
};

describe('sitebuilder connection decider', () => {
  it('consumes the authorization whose state hash matches', () => {
    const r = run([started('a1', hash('a')), started('a2', hash('b'))], {
      kind: 'consume_authorization',
      user_id: U,
      state_hash: hash('a'),
      now: at(10),
    });
    expect(r.events).toEqual([consumed('a1')]);
  });

  it('refuses a state mismatch, a used state and an expired one, naming the state field', () => {
    const base = [started('a1', hash('a'), 60)];
    expect(
      issue(() => run(base, { kind: 'consume_authorization', user_id: U, state_hash: hash('z'), now: at(1) })),
    ).toMatchObject({
      path: 'state',
      message: expect.stringContaining('state mismatch'),
    });
    expect(
      issue(() =>
        run([...base, consumed('a1')], {
          kind: 'consume_authorization',
          user_id: U,
          state_hash: hash('a'),
          now: at(1),
        }),
      ).message,
    ).toMatch(/already used/);
    expect(
      issue(() => run(base, { kind: 'consume_authorization', user_id: U, state_hash: hash('a'), now: at(61) })).message,
    ).toMatch(/expired/);
  });

  it('without a state takes the newest live authorization, and refuses when none is live', () => {
    const r = run([started('a1', hash('a')), started('a2', hash('b')), consumed('a2')], {
      kind: 'consume_authorization',
      user_id: U,
      now: at(1),
    });
    expect(r.events).toEqual([consumed('a1')]);
    expect(
      issue(() => run([started('a1', hash('a'), 5)], { kind: 'consume_authorization', user_id: U, now: at(6) }))
        .message,
    ).toMatch(/no authorization/);
  });

  it('connect records the connection once and replaces a live one', () => {
    const c = {
      kind: 'connect' as const,
      user_id: U,
      connection_id: 'c2',
      authorization_id: 'a2',
      scopes: [],
      site_name: 'S',
      site_url: null,
      access_expires_at: at(60).toISOString(),
    };
    expect(run([connected('c2', 'a2')], c).events).toEqual([]);
    const r = run([connected('c1')], c);
    expect(r.events.map((e) => e.type)).toEqual(['SitebuilderDisconnected', 'SitebuilderConnected']);
    expect(r.events[0].data).toMatchObject({ connection_id: 'c1', reason: 'replaced' });
  });

  it('records a refresh only for the live connection; disconnect ends it and 404s without one', () => {
    const live = [connected('c1')];
    expect(
      run(live, { kind: 'record_refresh', user_id: U, connection_id: 'c1', access_expires_at: at(99).toISOString() })
        .events,
    ).toHaveLength(1);
    expect(
      run(live, { kind: 'record_refresh', user_id: U, connection_id: 'old', access_expires_at: at(99).toISOString() })
        .events,
    ).toEqual([]);
    const d = run(live, { kind: 'disconnect', user_id: U, reason: 'user_request', revoked_at_builder: true });
    expect(d.events[0]).toMatchObject({
      type: 'SitebuilderDisconnected',
      data: { connection_id: 'c1', revoked_at_builder: true },
    });
    const after = fold(sitebuilderDecider, [...live, ...d.events]);
    expect(after.connection?.status).toBe('disconnected');
    expect(() =>
      sitebuilderDecider.decide(
        { kind: 'disconnect', user_id: U, reason: 'user_request', revoked_at_builder: false },
        after,
      ),
    ).toThrow(NotFoundError);
    // A revocation seen for an older connection does not end the current one.
    expect(
      run(live, {
        kind: 'disconnect',
        user_id: U,
        reason: 'revoked_by_builder',
        revoked_at_builder: true,
        connection_id: 'old',
      }).events,
    ).toEqual([]);
  });
});
