import { fold } from '../../../domain/decider';
import type { DomainEvent } from '../../../domain/events';
import { campaignDecider, CampaignCommand } from '../../../domain/outreach/campaign';
import { parseLead } from '../../../domain/outreach/leads';
import { MANUAL_MOVES } from '../../../domain/outreach/lead-status';
import { normalizeUrl, suppressionEntry } from '../../../domain/outreach/normalize';
import { ConflictError, NotFoundError, ValidationError } from '../../../domain/errors';
import { compileRequest } from '../../../api/kernel/validation';
import { campaignBody, templateBody } from '../../../api/outreach/schemas';
import type { JsonSchema } from '../../../domain/schema';

let n = 0;
const id = () => `lead-${++n}`;
const run = (events: DomainEvent[], c: CampaignCommand) => campaignDecider.decide(c, fold(campaignDecider, events));
const created: DomainEvent[] = campaignDecider.decide(
  {
    kind: 'create',
    campaign_id: 'c1',
    user_id: 'u1',
    workspace_id: 'u1',
    name: 'Garden blogs',
    description: null,
    keywords: ['gardening'],
    follow_up_days: [3, 7],
  },
  campaignDecider.initialState,
);
const lead = (url: string, email?: string) => {
  const p = parseLead({ website_url: url, contact_email: email }, id);
  if (!p.ok) throw new Error(p.reason);
  return p.lead;
};

describe('normalisation', () => {
  it('reduces URLs to the site page', () => {
    expect(normalizeUrl('https://WWW.Example.com:443/blog/?utm_source=x&b=2&a=1#top')).toBe(
      'https://example.com/blog?a=1&b=2',
    );
    expect(normalizeUrl('http://example.com')).toBe('http://example.com');
    expect(normalizeUrl('ftp://example.com')).toBeUndefined();
    expect(normalizeUrl('not a url')).toBeUndefined();
  });
  it('suppression entries are addresses or @domains', () => {
    expect(suppressionEntry(' Jane@Example.ORG ')).toEqual({ entry: 'jane@example.org', kind: 'address' });
    expect(suppressionEntry('@example.org')).toEqual({ entry: '@example.org', kind: 'domain' });
    expect(suppressionEntry('*@example.org')).toEqual({ entry: '@example.org', kind: 'domain' });
    expect(suppressionEntry('nobody')).toBeUndefined();
  });
});

describe('parseLead', () => {
  it('normalises and defaults', () => {
    const p = parseLead({ website_url: 'https://Blog.example.org/', contact_email: 'ED@Blog.example.org' }, () => 'x');
    expect(p).toEqual({
      ok: true,
      lead: expect.objectContaining({
        lead_id: 'x',
        normalized_url: 'https://blog.example.org',
        contact_email: 'ed@blog.example.org',
        source: 'manual',
        legal_basis: 'legitimate_interest',
      }),
    });
  });
  it('names what is wrong', () => {
    expect(parseLead({}, id)).toEqual({ ok: false, reason: 'website_url is required' });
    expect(parseLead({ website_url: 'https://a.example', contact_mail: 'ed@a.example' }, id)).toEqual({
      ok: false,
      reason: 'contact_mail is not a field of a lead: unknown fields are refused, not ignored',
    });
    expect(parseLead({ website_url: 'mailto:x@y.z' }, id)).toMatchObject({ ok: false, reason: /http/ });
    expect(parseLead({ website_url: 'https://a.example', quality_score: 2 }, id)).toMatchObject({
      reason: 'quality_score must be a number from 0 to 1',
    });
    expect(parseLead({ website_url: 'https://a.example', contact_email: 'nope' }, id)).toMatchObject({
      reason: /not an email/,
    });
    expect(parseLead('x', id)).toMatchObject({ ok: false });
  });
});

describe('campaign decider', () => {
  it('adds leads, skipping duplicates by normalised URL + email (in the campaign and in the batch)', () => {
    const first = run(created, {
      kind: 'add_leads',
      campaign_id: 'c1',
      user_id: 'u1',
      leads: [lead('https://a.example/x', 'a@a.example')],
    });
    expect(first).toHaveLength(1);
    const events = [...created, ...first];
    const second = run(events, {
      kind: 'add_leads',
      campaign_id: 'c1',
      user_id: 'u1',
      leads: [
        lead('https://www.a.example/x/', 'A@a.example'), // duplicate of the stored lead
        lead('https://a.example/x', 'b@a.example'), // same site, other contact: new
        lead('https://b.example', undefined),
        lead('https://B.example/', undefined), // duplicate within the batch
      ],
    });
    expect(second.map((e) => (e.type === 'OutreachLeadAdded' ? e.data.website_url : ''))).toEqual([
      'https://a.example/x',
      'https://b.example',
    ]);
  });

  it("another user's or a deleted campaign is not found", () => {
    expect(() => run(created, { kind: 'delete', campaign_id: 'c1', user_id: 'u2' })).toThrow(NotFoundError);
    const deleted = [...created, ...run(created, { kind: 'delete', campaign_id: 'c1', user_id: 'u1' })];
    expect(() => run(deleted, { kind: 'add_leads', campaign_id: 'c1', user_id: 'u1', leads: [] })).toThrow(
      NotFoundError,
    );
  });

  it('manual moves follow the table; bulk leaves out what cannot move', () => {
    const l = lead('https://c.example', 'c@c.example');
    const events = [...created, ...run(created, { kind: 'add_leads', campaign_id: 'c1', user_id: 'u1', leads: [l] })];
    const set = (to: 'placed' | 'lost' | 'discovered', bulk = false) =>
      run(events, { kind: 'set_status', campaign_id: 'c1', user_id: 'u1', lead_ids: [l.lead_id, 'missing'], to, bulk });
    expect(MANUAL_MOVES.discovered).not.toContain('placed');
    expect(() =>
      run(events, {
        kind: 'set_status',
        campaign_id: 'c1',
        user_id: 'u1',
        lead_ids: [l.lead_id],
        to: 'placed',
        bulk: false,
      }),
    ).toThrow(ConflictError);
    expect(set('placed', true)).toEqual([]);
    expect(set('lost', true)).toHaveLength(1);
    expect(() => set('lost')).toThrow(NotFoundError); // 'missing' in a single move
    expect(set('discovered', true)).toEqual([]); // already discovered: nothing to do
  });

  it('automatic moves happen once per cause and only from their states', () => {
    const l = lead('https://d.example', 'd@d.example');
    let events = [...created, ...run(created, { kind: 'add_leads', campaign_id: 'c1', user_id: 'u1', leads: [l] })];
    const send = run(events, {
      kind: 'auto_status',
      campaign_id: 'c1',
      lead_id: l.lead_id,
      cause: 'send',
      cause_id: 'a1',
    });
    expect(send).toMatchObject([{ data: { from: 'discovered', to: 'contacted', cause: 'send', cause_id: 'a1' } }]);
    events = [...events, ...send];
    expect(
      run(events, { kind: 'auto_status', campaign_id: 'c1', lead_id: l.lead_id, cause: 'send', cause_id: 'a2' }),
    ).toEqual([]);
    const reply = run(events, {
      kind: 'auto_status',
      campaign_id: 'c1',
      lead_id: l.lead_id,
      cause: 'reply',
      cause_id: 'r1',
    });
    expect(reply).toMatchObject([{ data: { to: 'replied' } }]);
    events = [...events, ...reply];
    expect(
      run(events, { kind: 'auto_status', campaign_id: 'c1', lead_id: l.lead_id, cause: 'reply', cause_id: 'r1' }),
    ).toEqual([]);
    expect(
      run(events, { kind: 'auto_status', campaign_id: 'c1', lead_id: l.lead_id, cause: 'bounce', cause_id: 'b1' }),
    ).toMatchObject([{ data: { to: 'bounced' } }]);
    expect(
      run(events, { kind: 'auto_status', campaign_id: 'c1', lead_id: 'nope', cause: 'bounce', cause_id: 'b1' }),
    ).toEqual([]);
  });

  it('folding twice from the initial state gives the same result (the initial state is never changed)', () => {
    const events = [
      ...created,
      ...run(created, { kind: 'add_leads', campaign_id: 'c1', user_id: 'u1', leads: [lead('https://e.example')] }),
    ];
    fold(campaignDecider, events);
    expect(campaignDecider.initialState.leads.size).toBe(0);
    expect(fold(campaignDecider, events).leads.size).toBe(1);
  });
});

describe('names stored trimmed', () => {
  // The fuzzer sent a campaign named "\f": accepted by a minLength of 1, trimmed to "" and refused by the event's
  // schema — a 500. A name of white space alone is the client's mistake: a 400 naming the field.
  const fields = (schema: JsonSchema, body: object) => {
    try {
      compileRequest({ body: schema })({ body, query: {}, params: {} });
      return [];
    } catch (err) {
      return (err as ValidationError).issues.map((f) => f.path);
    }
  };
  it('a campaign or template name of white space alone is refused; a name with letters is taken', () => {
    expect(fields(campaignBody, { name: '\f' })).toEqual(['name']);
    expect(fields(campaignBody, { name: ' \t ' })).toEqual(['name']);
    expect(fields(campaignBody, { name: ' Spring guest posts ' })).toEqual([]);
    expect(fields(templateBody, { name: '  ', subject: 's', body: 'b' })).toEqual(['name']);
    expect(fields(templateBody, { name: 'First touch', subject: 's', body: 'b' })).toEqual([]);
  });
});
