/**
 * Decisions on a campaign's stream (`outreachcampaign-<id>`): create, delete,
 * add leads (duplicates by normalised URL + email are skipped), and lead
 * status moves, manual (MANUAL_MOVES) or automatic (a send, a reply, a
 * bounce; AUTO_MOVES). Another user's or a deleted campaign is "not found".
 *
 * Automatic moves are idempotent by their cause: a retried activity that
 * reports the same send or reply again decides nothing.
 */
import type { Decider, Stored } from '../decider';
import { ConflictError, NotFoundError } from '../errors';
import type { DomainEvent } from '../events';
import type { LeadData, LeadStatus, StatusCause } from '../events/outreach';
import { AUTO_MOVES, manualMoveAllowed } from './lead-status';
import { leadKey } from './normalize';

export interface LeadState {
  status: LeadStatus;
  contact_email: string | null;
  /** Attempt and reply ids that already moved this lead (automatic moves are decided once per cause). */
  causes: Set<string>;
}

export interface CampaignState {
  campaign?: { user_id: string; workspace_id: string; deleted: boolean };
  leads: Map<string, LeadState>;
  /** Duplicate keys (normalised URL + email) of the campaign's leads. */
  keys: Set<string>;
}

export type NewLead = Omit<LeadData, 'campaign_id' | 'user_id'>;

export type CampaignCommand =
  | {
      kind: 'create';
      campaign_id: string;
      user_id: string;
      workspace_id: string;
      name: string;
      description: string | null;
      keywords: string[];
      follow_up_days: number[];
    }
  | { kind: 'delete'; campaign_id: string; user_id: string }
  | { kind: 'add_leads'; campaign_id: string; user_id: string; leads: NewLead[] }
  /** Manual move of one lead (404 unknown lead, 409 move not allowed) or of many (`bulk`: those that cannot move are left out). */
  | { kind: 'set_status'; campaign_id: string; user_id: string; lead_ids: string[]; to: LeadStatus; bulk: boolean }
  | {
      kind: 'auto_status';
      campaign_id: string;
      lead_id: string;
      cause: Exclude<StatusCause, 'manual'>;
      cause_id: string;
    };

/** The caller's live campaign, or 404. */
export function ownCampaign(s: CampaignState, userId: string): NonNullable<CampaignState['campaign']> {
  const c = s.campaign;
  if (!c || c.user_id !== userId || c.deleted) throw new NotFoundError('Campaign not found');
  return c;
}

/** Why a manual move of this lead is refused, or undefined when it is allowed. */
export function manualMoveProblem(s: CampaignState, leadId: string, to: LeadStatus): 'not_found' | string | undefined {
  const lead = s.leads.get(leadId);
  if (!lead) return 'not_found';
  if (!manualMoveAllowed(lead.status, to)) return `a lead cannot move from ${lead.status} to ${to}`;
  return undefined;
}

// The fold owns the collections it builds: the initial state's are never touched (a fresh Map is made on the
// first event), later events update the fold's own Map in place, so folding a campaign of n leads stays O(n).
const INITIAL: CampaignState = { leads: new Map(), keys: new Set() };
const owned = (s: CampaignState): CampaignState => (s === INITIAL ? { leads: new Map(), keys: new Set() } : s);

export const campaignDecider: Decider<CampaignCommand, CampaignState> = {
  initialState: INITIAL,
  evolve(state, e: Stored) {
    switch (e.type) {
      case 'OutreachCampaignCreated': {
        const s = owned(state);
        return { ...s, campaign: { user_id: e.data.user_id, workspace_id: e.data.workspace_id, deleted: false } };
      }
      case 'OutreachCampaignDeleted':
        return state.campaign ? { ...state, campaign: { ...state.campaign, deleted: true } } : state;
      case 'OutreachLeadAdded': {
        const s = owned(state);
        s.leads.set(e.data.lead_id, { status: 'discovered', contact_email: e.data.contact_email, causes: new Set() });
        s.keys.add(leadKey(e.data.normalized_url, e.data.contact_email));
        return s;
      }
      case 'OutreachLeadStatusChanged': {
        const lead = state.leads.get(e.data.lead_id);
        if (!lead) return state;
        lead.status = e.data.to;
        if (e.data.cause_id) lead.causes.add(e.data.cause_id);
        return state;
      }
      default:
        return state;
    }
  },
  decide(c, s): DomainEvent[] {
    switch (c.kind) {
      case 'create':
        if (s.campaign) throw new ConflictError('Campaign id already in use; retry');
        return [
          {
            type: 'OutreachCampaignCreated',
            data: {
              campaign_id: c.campaign_id,
              user_id: c.user_id,
              workspace_id: c.workspace_id,
              name: c.name,
              description: c.description,
              keywords: c.keywords,
              follow_up_days: c.follow_up_days,
            },
          },
        ];
      case 'delete':
        ownCampaign(s, c.user_id);
        return [{ type: 'OutreachCampaignDeleted', data: { campaign_id: c.campaign_id, user_id: c.user_id } }];
      case 'add_leads': {
        ownCampaign(s, c.user_id);
        const seen = new Set(s.keys);
        const out: DomainEvent[] = [];
        for (const l of c.leads) {
          const key = leadKey(l.normalized_url, l.contact_email);
          if (seen.has(key)) continue;
          seen.add(key);
          out.push({ type: 'OutreachLeadAdded', data: { ...l, campaign_id: c.campaign_id, user_id: c.user_id } });
        }
        return out;
      }
      case 'set_status': {
        ownCampaign(s, c.user_id);
        const out: DomainEvent[] = [];
        for (const id of new Set(c.lead_ids)) {
          const problem = manualMoveProblem(s, id, c.to);
          if (problem && c.bulk) continue;
          if (problem === 'not_found') throw new NotFoundError('Lead not found');
          if (problem) throw new ConflictError(problem, { lead_id: id });
          const from = s.leads.get(id)!.status;
          if (from === c.to) continue;
          out.push({
            type: 'OutreachLeadStatusChanged',
            data: {
              campaign_id: c.campaign_id,
              user_id: s.campaign!.user_id,
              lead_id: id,
              from,
              to: c.to,
              cause: 'manual',
              cause_id: null,
            },
          });
        }
        return out;
      }
      case 'auto_status': {
        const lead = s.leads.get(c.lead_id);
        if (!s.campaign || s.campaign.deleted || !lead || lead.causes.has(c.cause_id)) return [];
        const move = AUTO_MOVES[c.cause];
        if (!move.from.includes(lead.status)) return [];
        return [
          {
            type: 'OutreachLeadStatusChanged',
            data: {
              campaign_id: c.campaign_id,
              user_id: s.campaign.user_id,
              lead_id: c.lead_id,
              from: lead.status,
              to: move.to,
              cause: c.cause,
              cause_id: c.cause_id,
            },
          },
        ];
      }
    }
  },
};
