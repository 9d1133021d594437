import {
  classifyReply,
  isAutoReply,
  messageIdsIn,
  ownText,
  parseDeliveryStatus,
} from '../../../domain/outreach/replies';

describe('reply classification (rules over the reply’s own text)', () => {
  test.each([
    ["Yes, I'm interested! Send over an outline.", 'interested'],
    ['Sounds good, go ahead.', 'interested'],
    ['Not interested, thanks.', 'not_interested'],
    ["We don't accept guest posts any more.", 'not_interested'],
    ['Please remove me from your list.', 'unsubscribe'],
    ['Stop emailing me. Unsubscribe.', 'unsubscribe'],
    ["I'm not the right person, please contact maria@site.example who handles our blog.", 'referral'],
    ['How much do you charge for a sponsored post?', 'question'],
    ['Thanks for reaching out.', 'interested'],
  ])('%s → %s', (text, cls) => {
    expect(classifyReply(text).classification).toBe(cls);
  });

  it('confidence reflects the margin; signals name the phrases', () => {
    const c = classifyReply("Yes, I'm interested. What topics do you have?");
    expect(c.classification).toBe('interested');
    expect(c.confidence).toBeGreaterThan(0.5);
    expect(c.signals.some((s) => s.toLowerCase().includes("i'm interested"))).toBe(true);
    expect(classifyReply('Thanks for reaching out.').confidence).toBe(0.3);
  });

  it('quoted text does not count', () => {
    const body = 'Not interested.\n\nOn Mon, 2 Mar 2026, Sam wrote:\n> Yes I am interested, sounds great!';
    expect(ownText(body)).toBe('Not interested.');
    expect(classifyReply(body).classification).toBe('not_interested');
  });
});

describe('automatic messages', () => {
  it('RFC 3834 headers, Precedence, X-Autoreply and out-of-office subjects', () => {
    expect(isAutoReply({ 'auto-submitted': 'auto-replied' }, 'Re: x')).toEqual({
      auto: true,
      signal: 'Auto-Submitted: auto-replied',
    });
    expect(isAutoReply({ 'auto-submitted': 'no' }, 'Re: x').auto).toBe(false);
    expect(isAutoReply({ precedence: 'bulk' }, 'Re: x').auto).toBe(true);
    expect(isAutoReply({ 'x-autoreply': 'yes' }, 'Re: x').auto).toBe(true);
    expect(isAutoReply({}, 'Automatic reply: Guest post').auto).toBe(true);
    expect(isAutoReply({}, 'Out of Office: back Monday').auto).toBe(true);
    expect(isAutoReply({}, 'Re: Guest post').auto).toBe(false);
  });

  it('RFC 3464 delivery status: permanent 5.x.x, transient 4.x.x', () => {
    const report =
      'Reporting-MTA: dns; mx.example\n\nFinal-Recipient: rfc822; Ann@Example.org\nAction: failed\nStatus: 5.1.1\nDiagnostic-Code: smtp; 550 5.1.1 User unknown\n\nFinal-Recipient: rfc822; bo@example.org\nAction: delayed\nStatus: 4.4.7\n';
    expect(parseDeliveryStatus(report)).toEqual([
      {
        recipient: 'ann@example.org',
        action: 'failed',
        status: '5.1.1',
        permanent: true,
        diagnostic: 'smtp; 550 5.1.1 User unknown',
      },
      { recipient: 'bo@example.org', action: 'delayed', status: '4.4.7', permanent: false, diagnostic: undefined },
    ]);
    expect(messageIdsIn('<a@b.example> <c@d.example>\r\n <a@b.example>')).toEqual(['<a@b.example>', '<c@d.example>']);
  });
});
