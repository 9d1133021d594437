/**
 * Backlink outreach read model, part 2: what happened to the mail. Send
 * attempts (one row per `outreachattempt-` stream), follow-up steps (rows of
 * one `outreachfollowup-` stream each), replies (one row per
 * `outreachreply-` stream) and suppression entries (rows of one
 * `outreachsuppression-` stream each). The read queries serving attempts,
 * follow-ups, replies, suppression, analytics, snapshot and CSV exports are in
 * projections/outreach-activity-queries.ts.
 */
import type { RecordedEvent } from '../infra/eventstore/port';
import type { EventOfType } from '../domain/events';
import { Change, defineProjection } from './framework';

/** The read model's tables (projections/outreach-activity-queries.ts reads them). */
export const A = 'outreach_attempts';
export const F = 'outreach_follow_ups';
export const R = 'outreach_replies';
export const S = 'outreach_suppressions';

type AttemptEvent = RecordedEvent<
  EventOfType<'OutreachSendRefused'> | EventOfType<'OutreachEmailSent'> | EventOfType<'OutreachSendFailed'>
>;

function attemptRow(e: AttemptEvent, set: Record<string, unknown>): Change[] {
  const d = e.data;
  return [
    {
      op: 'upsert',
      table: A,
      key: { attempt_id: d.attempt_id },
      insert: {
        user_id: d.user_id,
        workspace_id: d.workspace_id,
        campaign_id: d.campaign_id,
        lead_id: d.lead_id,
        kind: d.kind,
        follow_up_of: d.follow_up_of,
        step: d.step,
        recipient: d.recipient,
        sender: d.sender,
        subject: d.subject,
        created_at: e.recordedAt,
        ...(set as Record<string, string | number | boolean | null>),
      },
    },
  ];
}

export const outreachActivityProjection = defineProjection({
  name: 'outreach-activity',
  migrationName: '0121_projection_outreach_activity',
  areas: ['outreach'],
  tables: [A, F, R, S],
  keys: {
    [A]: ['attempt_id'],
    [F]: ['follow_up_id', 'step'],
    [R]: ['reply_id'],
    [S]: ['user_id', 'workspace_id', 'entry'],
  },
  async createTables(knex, name) {
    await knex.schema.createTable(name(A), (t) => {
      t.text('attempt_id').primary();
      t.text('user_id').notNullable();
      t.text('workspace_id').notNullable();
      t.text('campaign_id').notNullable().index();
      t.text('lead_id').notNullable();
      t.text('kind').notNullable();
      t.text('follow_up_of');
      t.integer('step');
      t.text('recipient').notNullable();
      t.text('sender').notNullable();
      t.text('subject').notNullable();
      t.text('body');
      t.text('status').notNullable();
      t.text('reason');
      t.text('message_id');
      t.text('legal_basis');
      t.boolean('recovered').notNullable().defaultTo(false);
      t.timestamp('sent_at', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable();
    });
    await knex.schema.createTable(name(F), (t) => {
      t.text('follow_up_id').notNullable();
      t.integer('step').notNullable();
      t.text('user_id').notNullable();
      t.text('campaign_id').notNullable().index();
      t.text('lead_id').notNullable();
      t.timestamp('due_at', { useTz: true }).notNullable();
      t.text('status').notNullable();
      t.text('attempt_id');
      t.text('reason');
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.primary(['follow_up_id', 'step']);
    });
    await knex.schema.createTable(name(R), (t) => {
      t.text('reply_id').primary();
      t.text('user_id').notNullable();
      t.text('workspace_id').notNullable();
      t.text('campaign_id').notNullable().index();
      t.text('lead_id').notNullable();
      t.text('attempt_id').notNullable();
      t.text('message_id').notNullable();
      t.text('from_address').notNullable();
      t.text('subject').notNullable();
      t.text('kind').notNullable();
      t.text('classification').notNullable();
      t.double('confidence').notNullable();
      t.jsonb('signals').notNullable();
      t.text('snippet').notNullable();
      t.text('bounce_status');
      t.timestamp('received_at', { useTz: true }).notNullable();
      t.timestamp('recorded_at', { useTz: true }).notNullable();
    });
    await knex.schema.createTable(name(S), (t) => {
      t.text('user_id').notNullable();
      t.text('workspace_id').notNullable();
      t.text('entry').notNullable();
      t.text('kind').notNullable();
      t.text('reason');
      t.text('source').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.primary(['user_id', 'workspace_id', 'entry']);
    });
  },
  handlers: {
    OutreachSendRefused: (e) => attemptRow(e, { status: 'refused', reason: e.data.reason }),
    OutreachSendFailed: (e) => attemptRow(e, { status: 'failed', reason: e.data.error }),
    OutreachEmailSent: (e) =>
      attemptRow(e, {
        status: 'sent',
        body: e.data.body,
        message_id: e.data.message_id,
        legal_basis: e.data.legal_basis,
        recovered: e.data.recovered,
        sent_at: e.data.sent_at,
      }),
    OutreachFollowUpScheduled: (e) =>
      e.data.steps.map((s) => ({
        op: 'upsert' as const,
        table: F,
        key: { follow_up_id: e.data.follow_up_id, step: s.step },
        insert: {
          user_id: e.data.user_id,
          campaign_id: e.data.campaign_id,
          lead_id: e.data.lead_id,
          due_at: s.due_at,
          status: 'scheduled',
          updated_at: e.recordedAt,
        },
      })),
    OutreachFollowUpStepDone: (e) => [
      {
        op: 'update',
        table: F,
        key: { follow_up_id: e.data.follow_up_id, step: e.data.step },
        set: { status: e.data.outcome, attempt_id: e.data.attempt_id, reason: e.data.reason, updated_at: e.recordedAt },
      },
    ],
    // Steps still waiting are stopped; steps already done keep their outcome.
    OutreachFollowUpStopped: (e) =>
      e.data.steps.map((step) => ({
        op: 'update' as const,
        table: F,
        key: { follow_up_id: e.data.follow_up_id, step },
        set: { status: 'stopped', reason: e.data.reason, updated_at: e.recordedAt },
        whereIn: { column: 'status', values: ['scheduled'] },
      })),
    OutreachReplyReceived: (e) => [
      {
        op: 'upsert',
        table: R,
        key: { reply_id: e.data.reply_id },
        insert: {
          user_id: e.data.user_id,
          workspace_id: e.data.workspace_id,
          campaign_id: e.data.campaign_id,
          lead_id: e.data.lead_id,
          attempt_id: e.data.attempt_id,
          message_id: e.data.message_id,
          from_address: e.data.from,
          subject: e.data.subject,
          kind: e.data.kind,
          classification: e.data.classification,
          confidence: e.data.confidence,
          signals: e.data.signals,
          snippet: e.data.snippet,
          bounce_status: e.data.bounce_status,
          received_at: e.data.received_at,
          recorded_at: e.recordedAt,
        },
      },
    ],
    OutreachSuppressionAdded: (e) => [
      {
        op: 'upsert',
        table: S,
        key: { user_id: e.data.user_id, workspace_id: e.data.workspace_id, entry: e.data.entry },
        insert: { kind: e.data.kind, reason: e.data.reason, source: e.data.source, created_at: e.recordedAt },
      },
    ],
  },
});
