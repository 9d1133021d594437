/** Calendar campaigns (domain/calendar/campaign.ts): what a create and an update store of a timeline. */
import { fold } from '../../../domain/decider';
import type { DomainEvent } from '../../../domain/events';
import { campaignDecider, storedTimeline } from '../../../domain/calendar/campaign';

const created = (timeline?: { start_date: string; end_date: string; milestones?: { date: string; name: string }[] }) =>
  campaignDecider.decide(
    {
      kind: 'create',
      campaign_id: 'c1',
      calendar_id: 'cal1',
      owner_id: 'u1',
      actor: 'u1',
      fields: { name: 'Spring launch', ...(timeline ? { timeline } : {}) },
    },
    undefined,
  );

describe('a campaign timeline as stored', () => {
  it('milestones are [] when the client gave none, on a create and on an update alike', () => {
    const first = created({ start_date: '2027-03-01', end_date: '2027-03-31' });
    expect(first[0].data).toMatchObject({ timeline: { milestones: [] } });
    const state = fold(
      campaignDecider,
      first.map((e, i) => ({ ...e, streamPosition: i }) as never),
    );
    const updated = campaignDecider.decide(
      {
        kind: 'update',
        calendar_id: 'cal1',
        actor: 'u1',
        changes: { timeline: { start_date: '2027-04-01', end_date: '2027-04-30' } },
      },
      state,
    ) as DomainEvent[];
    // Was: { start_date, end_date } without milestones, and the campaign then answered a timeline without them.
    expect(updated[0].data).toMatchObject({
      changes: { timeline: { start_date: '2027-04-01', end_date: '2027-04-30', milestones: [] } },
    });
  });

  it('a timeline recorded without milestones reads with []; none stays none', () => {
    expect(storedTimeline({ start_date: '2027-04-01', end_date: '2027-04-30' })).toEqual({
      start_date: '2027-04-01',
      end_date: '2027-04-30',
      milestones: [],
    });
    expect(storedTimeline(null)).toBeNull();
    expect(storedTimeline(undefined)).toBeUndefined();
  });
});
