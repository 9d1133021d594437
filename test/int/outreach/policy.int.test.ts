/**
 * The policy engine against PostgreSQL: the warm-up ramp of a new sender
 * mailbox (clock moved day by day), reservations counted once per attempt id
 * and given back once, validate as a dry run, and fail-closed: a database
 * error during the check (a lock held past the lock time-out) refuses.
 */
import { randomUUID } from 'node:crypto';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { PostgresPolicyEngine } from '../../../infra/outreach';
import { DEFAULT_POLICY } from '../../../domain/outreach/policy';
import { REASONS } from '../../../domain/outreach/policy';

jest.setTimeout(60000);

describe('outreach policy engine', () => {
  let s: IsolatedSchema;
  beforeAll(async () => {
    s = await isolatedSchema();
  });
  afterAll(async () => {
    await s?.drop();
  });

  const req = (userId: string, i: number, extra = {}) => ({
    userId,
    workspaceId: 'w',
    recipient: `r${i}@d${i}.example`,
    sender: 'Out@Platform.test',
    subject: `s${i}`,
    ...extra,
  });

  it('warm-up: a new sender gets 2, then 4 sends a day, then the daily cap of 5', async () => {
    let now = new Date('2026-03-01T10:00:00Z');
    const e = new PostgresPolicyEngine(s.db, {
      settings: { ...DEFAULT_POLICY, senderDailyCap: 5, warmupRamp: [2, 4] },
      now: () => now,
    });
    const u = randomUUID();
    let n = 0;
    const day = async () => {
      const out = [];
      for (let i = 0; i < 7; i++) out.push(await e.reserve(req(u, n++), randomUUID()));
      return out;
    };
    const d1 = await day();
    expect(d1.map((r) => r.allowed)).toEqual([true, true, false, false, false, false, false]);
    expect(d1[2]).toMatchObject({
      reason: REASONS.senderCap(2, 'out@platform.test', 1),
      limits: { sender_daily_cap: 2, warmup_day: 1 },
      counts: { sender_today: 2 },
    });
    now = new Date('2026-03-02T10:00:00Z');
    expect((await day()).filter((r) => r.allowed)).toHaveLength(4);
    now = new Date('2026-03-03T10:00:00Z');
    const d3 = await day();
    expect(d3.filter((r) => r.allowed)).toHaveLength(5);
    expect(d3[6]).toMatchObject({
      reason: 'daily cap of 5 sends reached for sender out@platform.test',
      limits: { warmup_day: null },
    });
  });

  it('recipient domain cap: sends to one domain past the cap are refused; another domain is still allowed', async () => {
    const e = new PostgresPolicyEngine(s.db, {
      settings: { ...DEFAULT_POLICY, senderDailyCap: 50, domainDailyCap: 3, warmupRamp: [] },
    });
    const u = randomUUID();
    const to = (i: number, domain: string) => req(u, i, { recipient: `person${i}@${domain}`, subject: `pitch ${i}` });
    const out = [];
    // Different addresses and subjects, one domain (written with other case: domains compare lower-case).
    for (let i = 0; i < 5; i++) out.push(await e.reserve(to(i, i % 2 ? 'Shop.Example' : 'shop.example'), randomUUID()));
    expect(out.map((r) => r.allowed)).toEqual([true, true, true, false, false]);
    expect(out[2].counts).toMatchObject({ recipient_domain_today: 3, sender_today: 3 });
    for (const r of out.slice(3))
      expect(r).toMatchObject({
        allowed: false,
        reason: REASONS.domainCap(3, 'shop.example'),
        counts: { recipient_domain_today: 3, sender_today: 3 },
        limits: { recipient_domain_daily_cap: 3 },
      });
    expect(out[3].reason).toBe('daily cap of 3 sends reached for recipient domain shop.example');
    // A refusal counted nothing: not the sender's count, not the domain's.
    const v = await e.evaluate(to(9, 'shop.example'));
    expect(v).toMatchObject({ allowed: false, counts: { sender_today: 3, recipient_domain_today: 3 } });
    // Another domain is still allowed, and counts from zero.
    const other = await e.reserve(to(10, 'other-shop.example'), randomUUID());
    expect(other).toMatchObject({
      allowed: true,
      reason: null,
      counts: { recipient_domain_today: 1, sender_today: 4 },
    });
    // Another workspace of the same user has its own domain count.
    expect((await e.evaluate({ ...to(11, 'shop.example'), workspaceId: 'w2' })).allowed).toBe(true);
  });

  it('legal basis: recorded per contact at its first check (consent), kept on later checks; the default is legitimate interest', async () => {
    const e = new PostgresPolicyEngine(s.db, { settings: { ...DEFAULT_POLICY, warmupRamp: [] } });
    const u = randomUUID();
    const consent = await e.reserve(req(u, 1, { legalBasis: 'consent' }), randomUUID());
    expect(consent).toMatchObject({ allowed: true, legal_basis: 'GDPR Art. 6(1)(a) consent' });
    const row = await s
      .db('outreach_contacts')
      .where({ user_id: u, workspace_id: 'w', email: 'r1@d1.example' })
      .first();
    expect(row.legal_basis).toBe('consent');
    // The contact's recorded basis wins over what a later request says.
    const later = await e.evaluate(req(u, 1, { subject: 'another', legalBasis: 'legitimate_interest' }));
    expect(later.legal_basis).toBe('GDPR Art. 6(1)(a) consent');
    const dflt = await e.reserve(req(u, 2), randomUUID());
    expect(dflt.legal_basis).toBe('GDPR Art. 6(1)(f) legitimate interest');
    // A dry run records nothing.
    await e.evaluate(req(u, 3, { legalBasis: 'consent' }));
    expect(await s.db('outreach_contacts').where({ user_id: u, email: 'r3@d3.example' })).toEqual([]);
  });

  it('a reservation counts once per attempt id; release gives it back once; validate consumes nothing', async () => {
    const e = new PostgresPolicyEngine(s.db, { settings: { ...DEFAULT_POLICY, warmupRamp: [] } });
    const u = randomUUID();
    const a = randomUUID();
    const first = await e.reserve(req(u, 1), a);
    const again = await e.reserve(req(u, 1), a);
    expect([first.allowed, again]).toEqual([true, first]);
    expect((await e.evaluate(req(u, 2))).counts.sender_today).toBe(1);
    expect((await e.evaluate(req(u, 2))).counts.sender_today).toBe(1); // the dry run left nothing behind
    const dup = await e.evaluate(req(u, 1));
    expect(dup).toMatchObject({ allowed: false, counts: { same_subject_in_window: 1 } });
    await e.release(a);
    await e.release(a);
    const after = await e.evaluate(req(u, 1));
    expect(after).toMatchObject({ allowed: true, counts: { sender_today: 0, same_subject_in_window: 0 } });
  });

  it('fails closed: a database error during the check refuses the send and counts nothing', async () => {
    const errors: unknown[] = [];
    const e = new PostgresPolicyEngine(s.db, {
      settings: { ...DEFAULT_POLICY, warmupRamp: [] },
      lockTimeoutMs: 200,
      logger: { error: (o: unknown) => errors.push(o) },
    });
    const u = randomUUID();
    const trx = await s.db.transaction();
    try {
      // Another session holds the counters table: the check's statements cannot get their locks in time.
      await trx.raw('LOCK TABLE outreach_policy_counters IN ACCESS EXCLUSIVE MODE');
      const r = await e.reserve(req(u, 1), randomUUID());
      expect(r).toMatchObject({ allowed: false, reason: REASONS.unavailable });
      expect((await e.evaluate(req(u, 1))).allowed).toBe(false);
    } finally {
      await trx.rollback();
    }
    expect(errors.length).toBe(2);
    expect(await s.db('outreach_policy_counters').where({ user_id: u })).toEqual([]);
    expect(await s.db('outreach_send_claims').where({ user_id: u })).toEqual([]);
    // And a database that cannot be reached at all refuses too.
    const { createDb } = await import('../../../infra/db/knex');
    const dead = createDb({ url: 'postgres://nobody:nothing@127.0.0.1:9/none', poolMax: 1 });
    try {
      const r = await new PostgresPolicyEngine(dead, {
        settings: DEFAULT_POLICY,
        logger: { error: () => undefined },
      }).reserve(req(u, 2), randomUUID());
      expect(r).toMatchObject({ allowed: false, reason: REASONS.unavailable });
    } finally {
      await dead.destroy();
    }
  });
});
