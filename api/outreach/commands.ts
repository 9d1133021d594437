/**
 * Outreach write commands: each runs a decider of domain/outreach through
 * handleCommand (read, fold, decide, append at the version read). Routes
 * wait for the projection afterwards (read-your-writes).
 */
import type { EventMetadata, EventStoreOps } from '../../infra/eventstore';
import { handleCommand } from '../../infra/eventstore/command';
import { campaignStream, templateStream } from '../../domain/events/outreach';
import { CampaignCommand, campaignDecider } from '../../domain/outreach/campaign';
import { TemplateCommand, templateDecider } from '../../domain/outreach/template';

export const runCampaignCommand = (store: EventStoreOps, command: CampaignCommand, meta: EventMetadata = {}) =>
  handleCommand(store, campaignStream(command.campaign_id), campaignDecider, command, { metadata: meta });

export const runTemplateCommand = (store: EventStoreOps, command: TemplateCommand, meta: EventMetadata = {}) =>
  handleCommand(store, templateStream(command.template_id), templateDecider, command, { metadata: meta });
