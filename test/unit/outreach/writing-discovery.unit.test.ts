import { followUpEmail, generateEmail, personalizeEmail, subjectSuggestions } from '../../../domain/outreach/writer';
import { contactEmails, rankScore, scoreCandidates } from '../../../domain/outreach/discovery';
import { safeCell } from '../../../domain/outreach/csv';
import { dailySeries, rates } from '../../../domain/outreach/analytics';

describe('offline outreach writer', () => {
  it('is deterministic and keeps lead details as placeholders', () => {
    const a = generateEmail({ topic: 'home composting.', tone: 'formal' });
    expect(generateEmail({ topic: 'home composting.', tone: 'formal' })).toEqual(a);
    expect(a.body.startsWith('Dear {lead_name},')).toBe(true);
    expect(a.body).toContain('{sender_name}');
    expect(a.body).not.toContain('composting.,');
  });
  it('personalises: fills, greets by name, mentions the site once', () => {
    const p = personalizeEmail({
      base_email: 'Hi there,\n\nAn idea about {topic}.',
      lead_name: 'Ana Ruiz',
      lead_website: 'https://www.site.example/x',
      content_topic: 'soil',
    });
    expect(p.body).toBe(
      'Hi Ana,\n\nI came across site.example while looking for sites that write about soil.\n\nAn idea about soil.',
    );
    expect(p.subject).toBe('An article idea on soil for site.example');
    expect(p.unfilled).toEqual([]);
  });
  it('every sentence of the pitch names its topic as written, after a preposition or colon only', () => {
    const topic = 'preventive HVAC maintenance contracts for office buildings';
    for (const tone of ['professional', 'friendly', 'casual', 'formal'] as const) {
      const e = generateEmail({ topic, tone });
      const paragraphs = e.body.split('\n\n');
      // Greeting, pitch, ask, sign-off: the two middle paragraphs are the email, and each names the topic.
      expect(paragraphs).toHaveLength(4);
      for (const p of paragraphs.slice(1, 3)) expect(p).toContain(topic);
      expect(e.subject).toContain(topic);
      expect(e.body).not.toMatch(/hvac/);
      for (const s of subjectSuggestions(topic, tone)) {
        expect(s).toContain(topic);
        expect(s).not.toMatch(new RegExp(`^${topic}|${topic} (guide|post)`, 'i'));
      }
    }
  });
  it('follow-ups name the topic of the original (from its subject first) and add no stock lines', () => {
    const g = generateEmail({ topic: 'author events at an independent bookshop', tone: 'friendly' });
    const f = followUpEmail({ original_subject: g.subject, original_body: g.body, tone: 'friendly' });
    const [, nudge, close] = f.body.split('\n\n');
    expect(nudge).toBe(
      'Just bumping my note below about author events at an independent bookshop in case it got buried!',
    );
    expect(close).toMatch(/^No worries if an article on author events at an independent bookshop is not a fit/);
    expect(f.body).not.toMatch(/inboxes get busy/);
    // No topic to be found: the tone's own words, no "about".
    expect(followUpEmail({ original_subject: 'Idea', original_body: 'Hi,\nText' }).body).toMatch(
      /^Hi,\n\nI wanted to follow up on my note below, in case it was buried in a busy inbox\.\n\nIf it is not a fit/,
    );
  });
  it('follow-ups never stack "Re:" and quote the original', () => {
    expect(followUpEmail({ original_subject: 'Re: Idea', original_body: 'Hi,\nText' }).subject).toBe('Re: Idea');
    expect(followUpEmail({ original_subject: 'Idea', original_body: 'Hi,\nText' }).body).toContain('> Text');
    expect(new Set(subjectSuggestions('bees')).size).toBe(subjectSuggestions('bees').length);
  });
});

describe('discovery scoring', () => {
  const page = (url: string, title: string, text: string) => ({ url, title, text, credibility: 0.6, source: 'test' });
  it('guest-post phrases, resource pages, link density and emails make the likelihood; BM25 the relevance', () => {
    const [guest, resources, plain, offTopic] = scoreCandidates(
      [
        page(
          'https://a.example',
          'Write for us',
          'We accept guest posts about gardening. Contributor guidelines: pitch editor@a.example.',
        ),
        page(
          'https://b.example',
          'Gardening resources',
          'Useful links: [one](https://x.example) [two](https://y.example) gardening',
        ),
        page('https://c.example', 'Sowing', 'We sow beans in the gardening season.'),
        page('https://d.example', 'Cars', 'Engines and tyres.'),
      ],
      ['gardening'],
    );
    expect(guest.guest_post_likelihood).toBeGreaterThanOrEqual(0.6);
    expect(guest.contact_email).toBe('editor@a.example');
    expect(resources.signals).toContain('resource page');
    expect(resources.guest_post_likelihood).toBeGreaterThan(plain.guest_post_likelihood);
    expect(plain.guest_post_likelihood).toBe(0);
    expect(offTopic.relevance_score).toBe(0);
    expect(Math.max(guest.relevance_score, resources.relevance_score, plain.relevance_score)).toBe(1);
    expect(rankScore(guest)).toBeGreaterThan(rankScore(plain));
  });
  it('prefers editorial contact addresses', () => {
    expect(contactEmails('Ask jo@x.example or editor@x.example.')).toEqual(['editor@x.example', 'jo@x.example']);
  });
});

describe('CSV cells and rates', () => {
  it('cells that spreadsheets would read as formulas are quoted as text', () => {
    expect(['=1+1', '+1', '-2', '@SUM(A1)', '\tx', 'plain', null, ['a', 'b']].map(safeCell)).toEqual([
      "'=1+1",
      "'+1",
      "'-2",
      "'@SUM(A1)",
      "'\tx",
      'plain',
      '',
      'a; b',
    ]);
  });
  it('rates divide what they say and are 0 with nothing to divide by', () => {
    expect(rates({ leadsByStatus: {}, attempts: {}, replies: {}, repliedLeads: 0, emailedLeads: 0 })).toEqual({
      contact_rate: 0,
      reply_rate: 0,
      bounce_rate: 0,
      refusal_rate: 0,
      placement_rate: 0,
    });
    expect(
      rates({
        leadsByStatus: { discovered: 1, replied: 2, placed: 1 },
        attempts: { sent: 4, refused: 4 },
        replies: { bounce: 1 },
        repliedLeads: 2,
        emailedLeads: 3,
      }),
    ).toEqual({
      contact_rate: 0.75,
      reply_rate: 0.6667,
      bounce_rate: 0.25,
      refusal_rate: 0.5,
      placement_rate: 0.3333,
    });
    expect(dailySeries({ '2026-03-02': 3 }, 3, new Date('2026-03-03T12:00:00Z'))).toEqual([
      { date: '2026-03-01', sent: 0 },
      { date: '2026-03-02', sent: 3 },
      { date: '2026-03-03', sent: 0 },
    ]);
  });
});
