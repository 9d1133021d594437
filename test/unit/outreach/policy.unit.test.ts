import { DEFAULT_POLICY, parseRamp, senderCapOn, subjectKey } from '../../../domain/outreach/policy';
import { buildMessage, messageIdFor } from '../../../domain/outreach/message';

describe('policy rules', () => {
  it('warm-up ramp: its values while it lasts, never above the cap, then the cap', () => {
    const s = { ...DEFAULT_POLICY, senderDailyCap: 25 };
    expect([0, 1, 2, 3, 4, 30].map((d) => senderCapOn(s, d))).toEqual([
      { cap: 10, warmupDay: 1 },
      { cap: 20, warmupDay: 2 },
      { cap: 25, warmupDay: 3 },
      { cap: 25, warmupDay: 4 },
      { cap: 25, warmupDay: null },
      { cap: 25, warmupDay: null },
    ]);
    expect(parseRamp(' 5, 10 ')).toEqual([5, 10]);
    expect(parseRamp('')).toEqual([]);
    expect(() => parseRamp('5,x')).toThrow();
  });
  it('subjects compare without case and spacing', () => {
    expect(subjectKey('  Guest   POST idea ')).toBe('guest post idea');
  });
});

describe('outgoing message', () => {
  it('carries RFC 8058 headers, the footer and a Message-ID from the attempt; follow-ups thread', () => {
    const m = buildMessage({
      attemptId: 'a1',
      from: { address: 'out@platform.test', name: 'Out' },
      to: 'jane@x.example',
      subject: 'S',
      body: 'Hello\n\n',
      postalAddress: '1 Street, Town',
      unsubscribeUrl: 'https://p.test/u/a1.x',
      inReplyTo: '<outreach.a0@platform.test>',
    });
    expect(m.messageId).toBe(messageIdFor('a1', 'out@platform.test'));
    expect(m.messageId).toBe('<outreach.a1@platform.test>');
    expect(m.headers).toEqual({
      'List-Unsubscribe': '<https://p.test/u/a1.x>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      'Auto-Submitted': 'no',
    });
    expect(m.text).toMatch(/^Hello\n\n--\nOut\n1 Street, Town\n.*https:\/\/p\.test\/u\/a1\.x\n$/);
    expect(m.references).toEqual(['<outreach.a0@platform.test>']);
  });
});
