/**
 * Campaigns of a calendar (stream `calendarcampaign-<id>`): create and update.
 * Events join a campaign by `metadata.campaign_id`. Checks: the timeline's
 * start is not after its end, milestones fall inside it, content_mix shares
 * are 0..100 and add up to at most 100.
 */
import type { Decider, Stored } from '../decider';
import { NotFoundError } from '../errors';
import type { DomainEvent } from '../events';
import type { CampaignFields } from '../events/calendar';
import { invalid } from './errors';

export interface CampaignState {
  campaign_id: string;
  calendar_id: string;
  owner_id: string;
  fields: Required<Omit<CampaignFields, 'budget' | 'timeline' | 'content_strategy'>> &
    Pick<CampaignFields, 'budget' | 'timeline' | 'content_strategy'>;
}

export type CampaignCommand =
  | {
      kind: 'create';
      campaign_id: string;
      calendar_id: string;
      owner_id: string;
      actor: string;
      fields: CampaignFields & { name: string };
    }
  | { kind: 'update'; calendar_id: string; actor: string; changes: CampaignFields };

export function checkCampaign(f: CampaignFields): void {
  const t = f.timeline;
  if (t) {
    if (t.start_date > t.end_date)
      throw invalid('timeline.end_date', 'timeline end_date must not be before start_date', t.end_date);
    (t.milestones ?? []).forEach((m, i) => {
      if (m.date < t.start_date || m.date > t.end_date)
        throw invalid(`timeline.milestones.${i}.date`, 'milestones must fall inside the timeline', m.date);
    });
  }
  const mix = f.content_strategy?.content_mix;
  if (mix) {
    const total = Object.values(mix).reduce((a, b) => a + b, 0);
    if (total > 100.0001)
      throw invalid('content_strategy.content_mix', `content_mix shares add up to ${total}, more than 100`, mix);
  }
}

/**
 * A timeline as stored: its milestones are a list, [] when the client gave none — on a create and on an update alike
 * (a timeline is replaced whole; an update that sent one without milestones once stored it without the field).
 */
export function storedTimeline<T extends CampaignFields['timeline'] | null>(t: T): T {
  return t ? { ...t, milestones: t.milestones ?? [] } : t;
}

export const campaignDecider: Decider<CampaignCommand, CampaignState | undefined> = {
  initialState: undefined,
  evolve(s, e: Stored) {
    if (e.type === 'CalendarCampaignCreated') {
      const { campaign_id, calendar_id, owner_id, created_by: _c, ...fields } = e.data;
      return {
        campaign_id,
        calendar_id,
        owner_id,
        fields: {
          ...fields,
          budget: fields.budget ?? undefined,
          timeline: fields.timeline ?? undefined,
          content_strategy: fields.content_strategy ?? undefined,
        },
      };
    }
    if (e.type === 'CalendarCampaignUpdated' && s) return { ...s, fields: { ...s.fields, ...e.data.changes } };
    return s;
  },
  decide(c, s): DomainEvent[] {
    if (c.kind === 'create') {
      checkCampaign(c.fields);
      return [
        {
          type: 'CalendarCampaignCreated',
          data: {
            campaign_id: c.campaign_id,
            calendar_id: c.calendar_id,
            owner_id: c.owner_id,
            created_by: c.actor,
            name: c.fields.name,
            description: c.fields.description ?? '',
            objectives: c.fields.objectives ?? [],
            target_audience: c.fields.target_audience ?? '',
            budget: c.fields.budget ?? null,
            timeline: storedTimeline(c.fields.timeline) ?? null,
            content_strategy: c.fields.content_strategy ?? null,
            status: c.fields.status ?? 'planned',
          },
        },
      ];
    }
    if (!s || s.calendar_id !== c.calendar_id) throw new NotFoundError('Campaign not found');
    const asked = 'timeline' in c.changes ? { ...c.changes, timeline: storedTimeline(c.changes.timeline) } : c.changes;
    const merged = { ...s.fields, ...asked };
    checkCampaign(merged);
    const changes = Object.fromEntries(
      Object.entries(asked).filter(
        ([k, v]) => JSON.stringify(v) !== JSON.stringify((s.fields as Record<string, unknown>)[k]),
      ),
    ) as CampaignFields;
    if (!Object.keys(changes).length) return [];
    return [
      {
        type: 'CalendarCampaignUpdated',
        data: {
          calendar_id: s.calendar_id,
          owner_id: s.owner_id,
          campaign_id: s.campaign_id,
          updated_by: c.actor,
          changes,
        },
      },
    ];
  },
};
