/**
 * Replies against a real mailbox (GreenMail on loopback): a human reply, an
 * auto-reply, a hard bounce (RFC 3464 report) and an unsubscribe request
 * placed in the sender mailbox are matched to their sends, classified and
 * acted on (lead status, suppression, follow-ups stopped); follow-ups go out
 * on their day in the thread of the first message; the Temporal Schedule
 * polls by itself.
 */
import { simpleParser } from 'mailparser';
import { testTemporal, uniq } from '../../support/env';
import type { MailServer } from '../../support/mail-server';
import { TEST_SENDER } from '../../support/outreach-worker';
import { ensureReplyPollSchedule } from '../../../workers/outreach-schedule';
import { campaignWithLeads, OutreachApi, OutreachStack, startOutreachStack } from './helpers';
import { waitFor } from '../../support/wait';

jest.setTimeout(240000);

const POLICY = { senderDailyCap: 100, domainDailyCap: 10, warmupRamp: [] };

const dsn = (to: string, original: string) =>
  [
    'From: Mail Delivery System <MAILER-DAEMON@mx.bounce.example>',
    `To: ${TEST_SENDER.email}`,
    'Subject: Undelivered Mail Returned to Sender',
    'Message-ID: <dsn-1@mx.bounce.example>',
    'Date: Mon, 02 Mar 2026 10:00:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=delivery-status; boundary="B0UND"',
    '',
    '--B0UND',
    'Content-Type: text/plain; charset=us-ascii',
    '',
    'The message could not be delivered to one or more recipients.',
    '',
    '--B0UND',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.bounce.example',
    '',
    `Final-Recipient: rfc822; ${to}`,
    'Action: failed',
    'Status: 5.1.1',
    'Diagnostic-Code: smtp; 550 5.1.1 User unknown',
    '',
    '--B0UND',
    'Content-Type: text/rfc822-headers',
    '',
    `Message-ID: ${original}`,
    `From: Platform Outreach <${TEST_SENDER.email}>`,
    `To: ${to}`,
    'Subject: Guest post',
    '',
    '--B0UND--',
    '',
  ].join('\r\n');

const autoReply = (from: string, inReplyTo: string) =>
  [
    `From: ${from}`,
    `To: ${TEST_SENDER.email}`,
    'Subject: Automatic reply: Guest post',
    `Message-ID: <ooo-1@${from.split('@')[1]}>`,
    `In-Reply-To: ${inReplyTo}`,
    'Auto-Submitted: auto-replied',
    'Date: Mon, 02 Mar 2026 10:00:00 +0000',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'I am out of the office until Monday with limited access to email.',
    '',
  ].join('\r\n');

describe('outreach replies (GreenMail, IMAP)', () => {
  let mail: MailServer;
  let api: OutreachApi;
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  let taskQueue: string;

  let stack: OutreachStack;
  beforeAll(async () => {
    stack = await startOutreachStack('outreach-replies', POLICY);
    ({ mail, temporal, api } = stack);
    taskQueue = stack.taskQueue;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const send = async (token: string, campaignId: string, leadId: string, subject = 'Guest post') => {
    const r = await api.req('POST', '/outreach/send', token, {
      campaign_id: campaignId,
      lead_id: leadId,
      subject,
      body: 'Hi,\n\nWould you accept a guest post about composting?\n\nBest',
    });
    expect(r.status).toBe(200);
    return r.body as { id: string; message_id: string };
  };

  it('a reply, an auto-reply, a bounce and an unsubscribe are matched, classified and acted on', async () => {
    const { token } = await api.session();
    const emails = ['ann@r1.example', 'bob@r2.example', 'cat@r3.example', 'dan@r4.example'];
    const { campaignId, leadIds } = await campaignWithLeads(api, token, emails, { follow_up_days: [5] });
    const sent = [];
    for (const id of leadIds) sent.push(await send(token, campaignId, id));

    await mail.deliver({
      from: 'ann@r1.example',
      to: TEST_SENDER.email,
      subject: 'Re: Guest post',
      inReplyTo: sent[0].message_id,
      references: [sent[0].message_id],
      text: "Yes, I'm interested! Send over an outline when you can.\n\nOn Mon, 2 Mar 2026, Platform Outreach wrote:\n> Hi,\n> Would you accept a guest post?",
    });
    await mail.append(TEST_SENDER.email, autoReply('bob@r2.example', sent[1].message_id));
    await mail.append(TEST_SENDER.email, dsn('cat@r3.example', sent[2].message_id));
    await mail.deliver({
      from: 'dan@r4.example',
      to: TEST_SENDER.email,
      subject: 'Re: Guest post',
      inReplyTo: sent[3].message_id,
      references: [sent[3].message_id],
      text: 'Please remove me from your list.',
    });
    await mail.deliver({ from: 'someone@else.example', to: TEST_SENDER.email, subject: 'Hello', text: 'Unrelated' });

    const poll = await api.req('POST', '/replies/poll', token, { campaign_id: campaignId });
    expect(poll.status).toBe(200);
    expect(poll.body).toMatchObject({ replies_found: 2, auto_replies: 1, bounces: 1, failed: 0, unmatched: 1 });
    expect(poll.body.scanned).toBeGreaterThanOrEqual(9); // 4 copies of our sends, 5 messages placed

    const replies = (await api.req('GET', `/campaigns/${campaignId}/replies`, token)).body;
    const byLead = Object.fromEntries(replies.map((r: { lead_id: string }) => [r.lead_id, r]));
    expect(byLead[leadIds[0]]).toMatchObject({ kind: 'reply', classification: 'interested', attempt_id: sent[0].id });
    expect(byLead[leadIds[0]].snippet).not.toContain('Would you accept'); // quoted text dropped
    expect(byLead[leadIds[1]]).toMatchObject({ kind: 'auto_reply', classification: 'auto_reply' });
    expect(byLead[leadIds[2]]).toMatchObject({ kind: 'bounce', classification: 'bounce', bounce_status: '5.1.1' });
    expect(byLead[leadIds[3]]).toMatchObject({ kind: 'reply', classification: 'unsubscribe' });

    const leads = (await api.req('GET', `/campaigns/${campaignId}`, token)).body.leads;
    expect(leads.map((l: { status: string }) => l.status)).toEqual(['replied', 'contacted', 'bounced', 'replied']);
    const supp = (await api.req('GET', '/suppression', token)).body;
    expect(supp.map((x: { email: string; source: string }) => [x.email, x.source])).toEqual([
      ['cat@r3.example', 'bounce'],
      ['dan@r4.example', 'unsubscribe_reply'],
    ]);
    // Follow-ups of the leads that replied or bounced stop at once; the auto-replied lead's stay scheduled.
    const fu = await waitFor('three stopped follow-ups', async () => {
      const b: { status: string }[] = (await api.req('GET', `/campaigns/${campaignId}/follow-ups`, token)).body;
      return b.filter((x) => x.status === 'stopped').length === 3 && b;
    });
    const status = Object.fromEntries(
      (fu as { lead_id: string; status: string; reason: string }[]).map((f) => [f.lead_id, [f.status, f.reason]]),
    );
    expect(status).toEqual({
      [leadIds[0]]: ['stopped', 'lead status is replied'],
      [leadIds[1]]: ['scheduled', null],
      [leadIds[2]]: ['stopped', 'lead status is bounced'],
      [leadIds[3]]: ['stopped', 'lead status is replied'],
    });
    // Read again: nothing new (checkpoint), nothing recorded twice.
    const again = await api.req('POST', '/replies/poll', token, {});
    expect(again.body).toMatchObject({ replies_found: 0, bounces: 0, auto_replies: 0, scanned: 0 });
    expect((await api.req('GET', `/campaigns/${campaignId}/replies`, token)).body).toHaveLength(4);
  });

  it('follow-ups go out on their day in the thread of the first message and stop on a reply', async () => {
    const { token } = await api.session();
    const { campaignId, leadIds } = await campaignWithLeads(api, token, ['eve@r5.example'], {
      follow_up_days: [0.0001, 0.0003], // 8.6 s and 25.9 s after the first send
    });
    const first = await send(token, campaignId, leadIds[0], 'Composting guest post');
    const fu = await waitFor('step 1 sent', async () => {
      const b: { step: number; status: string }[] = (await api.req('GET', `/campaigns/${campaignId}/follow-ups`, token))
        .body;
      return b.some((x) => x.step === 1 && x.status === 'sent') && b;
    });
    expect(fu.map((f: { step: number; status: string }) => [f.step, f.status])).toEqual([
      [1, 'sent'],
      [2, 'scheduled'],
    ]);
    const inbox = await mail.messages('eve@r5.example');
    expect(inbox).toHaveLength(2);
    const followUp = await simpleParser(inbox[1]);
    expect(followUp.subject).toBe('Re: Composting guest post');
    expect(followUp.inReplyTo).toBe(first.message_id);
    expect(followUp.text).toMatch(/follow up/i);
    expect(followUp.text).toContain('> Would you accept a guest post about composting?');
    const attempts = (await api.req('GET', `/campaigns/${campaignId}/attempts`, token)).body;
    expect(
      attempts.map((a: { kind: string; step: number | null; status: string }) => [a.kind, a.step, a.status]),
    ).toEqual([
      ['initial', null, 'sent'],
      ['follow_up', 1, 'sent'],
    ]);
    await mail.deliver({
      from: 'eve@r5.example',
      to: TEST_SENDER.email,
      subject: 'Re: Composting guest post',
      inReplyTo: followUp.messageId,
      references: [first.message_id, followUp.messageId!],
      text: 'Not interested, thanks.',
    });
    const poll = await api.req('POST', '/replies/poll', token, { campaign_id: campaignId });
    expect(poll.body.replies_found).toBe(1);
    const after = await waitFor('step 2 no longer scheduled', async () => {
      const b: { step: number; status: string }[] = (await api.req('GET', `/campaigns/${campaignId}/follow-ups`, token))
        .body;
      return b.some((x) => x.step === 2 && x.status !== 'scheduled') && b;
    });
    expect(after.find((x: { step: number }) => x.step === 2)).toMatchObject({
      status: 'stopped',
      reason: 'lead status is replied',
    });
    expect((await api.req('GET', `/campaigns/${campaignId}/replies`, token)).body[0].classification).toBe(
      'not_interested',
    );
  });

  it('auth and ownership of the reply routes', async () => {
    const a = await api.session();
    const b = await api.session();
    const { campaignId } = await campaignWithLeads(api, a.token, ['fay@r6.example'], { follow_up_days: [] });
    expect((await api.req('POST', '/replies/poll', null, {})).body).toEqual({ detail: 'Not authenticated' });
    expect((await api.req('GET', `/campaigns/${campaignId}/replies`, null)).status).toBe(401);
    expect((await api.req('GET', `/campaigns/${campaignId}/replies`, b.token)).status).toBe(404);
    expect((await api.req('POST', '/replies/poll', b.token, { campaign_id: campaignId })).status).toBe(404);
  });

  it('the Temporal Schedule polls the mailbox by itself', async () => {
    const { token } = await api.session();
    const { campaignId, leadIds } = await campaignWithLeads(api, token, ['gus@r7.example'], { follow_up_days: [] });
    const first = await send(token, campaignId, leadIds[0]);
    const scheduleId = await ensureReplyPollSchedule(temporal.client, {
      taskQueue,
      intervalSeconds: 2,
      scheduleId: uniq('outreach-reply-poll-test'),
    });
    try {
      await mail.deliver({
        from: 'gus@r7.example',
        to: TEST_SENDER.email,
        subject: 'Re: Guest post',
        inReplyTo: first.message_id,
        text: 'How much do you charge for a sponsored post?',
      });
      const replies = await waitFor(
        'a reply',
        async () => {
          const r: unknown[] = (await api.req('GET', `/campaigns/${campaignId}/replies`, token)).body;
          return r.length > 0 && r;
        },
        45000,
      );
      expect(replies).toMatchObject([{ classification: 'question', kind: 'reply' }]);
    } finally {
      await temporal.client.schedule.getHandle(scheduleId).delete();
    }
  });
});
