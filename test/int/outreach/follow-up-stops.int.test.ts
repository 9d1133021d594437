/**
 * Follow-ups stop (real mail server: GreenMail on loopback): a suppression
 * added with POST /suppression (address or @domain) or by the one-click
 * unsubscribe link cancels the waiting follow-ups to it at once; deleting a
 * campaign cancels its follow-ups; and a suppression that did not cancel the
 * workflow (written by another path) is caught by the gate before the step
 * sends. Each stop is recorded with its reason and no follow-up mail goes out.
 */
import { call } from '../../support/http';
import type { MailServer } from '../../support/mail-server';
import type { startOutreachWorker } from '../../support/outreach-worker';
import { addSuppression } from '../../../infra/outreach';
import { campaignWithLeads, OutreachApi, OutreachStack, startOutreachStack } from './helpers';
import { waitFor } from '../../support/wait';

jest.setTimeout(240000);

const POLICY = { senderDailyCap: 100, domainDailyCap: 10, warmupRamp: [] };
const SUPPRESSED = 'recipient is on the suppression list';

interface FollowUp {
  follow_up_id: string;
  step: number;
  status: string;
  reason: string | null;
}

describe('outreach follow-ups stop on suppression and campaign delete (GreenMail)', () => {
  let mail: MailServer;
  let api: OutreachApi;
  let worker: Awaited<ReturnType<typeof startOutreachWorker>>;

  let stack: OutreachStack;
  beforeAll(async () => {
    stack = await startOutreachStack('outreach-fu-stop', POLICY);
    ({ mail, api, worker } = stack);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** Sends the first email to a lead and waits until its follow-ups are scheduled. */
  const sendFirst = async (token: string, campaignId: string, leadId: string) => {
    const r = await api.req('POST', '/outreach/send', token, {
      campaign_id: campaignId,
      lead_id: leadId,
      subject: 'A guest post idea',
      body: 'Hi,\n\nWould you accept a guest post about composting?\n\nBest',
    });
    expect(r.status).toBe(200);
    const fu = await waitFor("the first send's follow-ups", async () => {
      const b = await followUpsOf(campaignId);
      return b.some((x) => x.follow_up_id === r.body.id) && b;
    });
    expect(fu.filter((x) => x.follow_up_id === r.body.id).every((x) => x.status === 'scheduled')).toBe(true);
    return r.body as { id: string; message_id: string };
  };
  /** The follow-up rows of a campaign, read from the projection (a deleted campaign's routes answer 404). */
  const followUpsOf = async (campaignId: string): Promise<FollowUp[]> =>
    api.schema
      .db('outreach_follow_ups')
      .where({ campaign_id: campaignId })
      .orderBy([{ column: 'follow_up_id' }, { column: 'step' }])
      .select('follow_up_id', 'step', 'status', 'reason');
  /** Waits until none of the follow-ups of this first send is scheduled any more; returns them. */
  const stopped = (campaignId: string, followUpId: string, ms = 30000) =>
    waitFor(
      `no follow-up of ${followUpId} scheduled`,
      async () => {
        const b = (await followUpsOf(campaignId)).filter((x) => x.follow_up_id === followUpId);
        return b.length > 0 && b.every((x) => x.status !== 'scheduled') && b;
      },
      ms,
    );

  it('POST /suppression (address, then @domain) stops the waiting follow-ups to it at once, and only those', async () => {
    const { token } = await api.session();
    const { campaignId, leadIds } = await campaignWithLeads(
      api,
      token,
      ['ann@fu-one.example', 'bob@fu-two.example', 'cat@fu-two.example', 'dan@fu-three.example'],
      { follow_up_days: [20, 40] },
    );
    const sends: { id: string }[] = [];
    for (const id of leadIds) sends.push(await sendFirst(token, campaignId, id));

    const s = await api.req('POST', '/suppression', token, { email: 'Ann@fu-one.example' });
    expect(s.status).toBe(201);
    expect(await stopped(campaignId, sends[0].id)).toEqual([
      { follow_up_id: sends[0].id, step: 1, status: 'stopped', reason: SUPPRESSED },
      { follow_up_id: sends[0].id, step: 2, status: 'stopped', reason: SUPPRESSED },
    ]);
    // A whole domain: both of its leads stop.
    expect((await api.req('POST', '/suppression', token, { email: '@FU-two.example' })).status).toBe(201);
    for (const x of [sends[1], sends[2]])
      expect((await stopped(campaignId, x.id)).map((f) => [f.status, f.reason])).toEqual([
        ['stopped', SUPPRESSED],
        ['stopped', SUPPRESSED],
      ]);
    // The other lead's follow-ups still wait; another user's suppression of the same address stops nothing.
    const other = await api.session();
    expect((await api.req('POST', '/suppression', other.token, { email: 'dan@fu-three.example' })).status).toBe(201);
    // ...and neither does another workspace of the same user.
    expect(
      (await api.req('POST', '/suppression', token, { email: 'dan@fu-three.example', workspace_id: 'elsewhere' }))
        .status,
    ).toBe(201);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await followUpsOf(campaignId)).filter((x) => x.follow_up_id === sends[3].id).map((x) => x.status)).toEqual([
      'scheduled',
      'scheduled',
    ]);
    const listed = (await api.req('GET', `/campaigns/${campaignId}/follow-ups`, token)).body as FollowUp[];
    expect(listed.filter((x) => x.status === 'stopped')).toHaveLength(6);
    // Only the first emails went out.
    for (const e of ['ann@fu-one.example', 'bob@fu-two.example', 'cat@fu-two.example'])
      expect(await mail.messages(e)).toHaveLength(1);
    // The lead that stays contacted is left alone; stop it so nothing waits after the test.
    await api.req('PATCH', `/campaigns/${campaignId}/leads/${leadIds[3]}/status`, token, { status: 'lost' });
    expect((await stopped(campaignId, sends[3].id)).map((f) => f.reason)).toEqual([
      'lead status is lost',
      'lead status is lost',
    ]);
  });

  it('the one-click unsubscribe link stops the waiting follow-ups to its recipient at once', async () => {
    const { token } = await api.session();
    const { campaignId, leadIds } = await campaignWithLeads(api, token, ['eve@fu-unsub.example'], {
      follow_up_days: [20],
    });
    const first = await sendFirst(token, campaignId, leadIds[0]);
    const raw = (await mail.messages('eve@fu-unsub.example'))[0];
    const link = /^List-Unsubscribe:[ \t]*<([^>]+)>/im.exec(raw.replace(/\r?\n[ \t]+/g, ' '))![1];
    const u = await call(`${api.url}${new URL(link).pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(u.status).toBe(200);
    expect(await stopped(campaignId, first.id)).toEqual([
      { follow_up_id: first.id, step: 1, status: 'stopped', reason: SUPPRESSED },
    ]);
    expect((await api.req('GET', '/suppression', token)).body).toMatchObject([
      { email: 'eve@fu-unsub.example', source: 'unsubscribe_link' },
    ]);
  });

  it('deleting the campaign stops its waiting follow-ups at once', async () => {
    const { token } = await api.session();
    const { campaignId, leadIds } = await campaignWithLeads(api, token, ['fay@fu-del.example', 'gil@fu-del2.example'], {
      follow_up_days: [20, 40],
    });
    const a = await sendFirst(token, campaignId, leadIds[0]);
    const b = await sendFirst(token, campaignId, leadIds[1]);
    expect((await api.req('DELETE', `/campaigns/${campaignId}`, token)).status).toBe(204);
    for (const x of [a, b])
      expect((await stopped(campaignId, x.id)).map((f) => [f.step, f.status, f.reason])).toEqual([
        [1, 'stopped', 'campaign deleted'],
        [2, 'stopped', 'campaign deleted'],
      ]);
    expect((await api.req('GET', `/campaigns/${campaignId}/follow-ups`, token)).status).toBe(404);
  });

  it('a suppression that did not cancel the workflow is caught by the gate before the step: no follow-up is sent', async () => {
    const { token, userId } = await api.session();
    const { campaignId, leadIds } = await campaignWithLeads(api, token, ['hal@fu-gate.example'], {
      follow_up_days: [0.0002], // 17.3 s after the first send
    });
    const first = await sendFirst(token, campaignId, leadIds[0]);
    // Written straight to the list (as a path that cancels nothing would): the workflow keeps waiting.
    await addSuppression(worker.store, {
      userId,
      workspaceId: 'default',
      entry: 'hal@fu-gate.example',
      kind: 'address',
      reason: 'test: written without cancelling',
      source: 'manual',
    });
    expect((await followUpsOf(campaignId)).map((x) => x.status)).toEqual(['scheduled']);
    expect(await stopped(campaignId, first.id, 90000)).toEqual([
      { follow_up_id: first.id, step: 1, status: 'stopped', reason: SUPPRESSED },
    ]);
    expect(await mail.messages('hal@fu-gate.example')).toHaveLength(1);
    const attempts = (await api.req('GET', `/campaigns/${campaignId}/attempts`, token)).body;
    expect(attempts.map((x: { kind: string }) => x.kind)).toEqual(['initial']);
  });
});
