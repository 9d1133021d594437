/** The catalogue: names per family, and which domain events produce which messages and payloads. */
import {
  buildPayload,
  isContentTask,
  SourceEvent,
  subscribableNames,
  TEST_EVENT,
  webhookMessagesFor,
  WEBHOOK_NAMES,
  WEBHOOK_SOURCE_TYPES,
  withDeliveryId,
} from '../../../domain/webhooks/catalogue';
import { foldEndpoint } from '../../../domain/webhooks/endpoint';

const completed = (result: Record<string, unknown>, user = 'u1'): SourceEvent => ({
  eventId: 'e1',
  type: 'TaskCompleted',
  data: { task_id: 't1', result },
  metadata: { user_id: user },
  recordedAt: '2026-11-22T10:00:00.000Z',
});

describe('webhook catalogue', () => {
  it("names the spec's general and integration events, and a test ping that is not subscribable", () => {
    expect(subscribableNames('general').sort()).toEqual([
      'content.generated',
      'content_generated',
      'quota.warning',
      'research_complete',
      'seo.analysis.completed',
      'seo_analysis_complete',
      'strategy.updated',
      'user_action',
    ]);
    expect(WEBHOOK_NAMES[TEST_EVENT]).toBeDefined();
    expect(WEBHOOK_SOURCE_TYPES.sort()).toEqual([
      'AlertRaised',
      'CalendarEventApprovalRecorded',
      'CalendarEventCreated',
      'CalendarEventPerformanceRecorded',
      'CalendarEventPublishFailed',
      'CalendarEventPublished',
      'CalendarEventUpdated',
      'IntegrationActionRecorded',
      'SeoAnalysisCompleted',
      'TaskCompleted',
    ]);
  });

  it('maps a completed blog task to content.generated and content_generated (with the content)', () => {
    const r = webhookMessagesFor(completed({ content: '# Title\n\nBody' }), {
      task: { task_type: 'blog-medium', user_id: 'owner' },
    });
    expect(r).toEqual({
      userId: 'owner',
      messages: [
        {
          name: 'content.generated',
          data: { task_id: 't1', task_type: 'blog_medium', result: { content: '# Title\n\nBody' } },
        },
        {
          name: 'content_generated',
          data: { task_id: 't1', task_type: 'blog_medium', result: { content: '# Title\n\nBody' } },
          content: '# Title\n\nBody',
        },
      ],
    });
    expect(
      webhookMessagesFor(completed({ blog_post: { content: 'x' } }), {
        task: { task_type: 'blog_post', user_id: 'o' },
      })!.messages[1].content,
    ).toBe('x');
  });

  it('maps research to research_complete, outline to nothing, and needs the task context', () => {
    expect(
      webhookMessagesFor(completed({ sources: [] }), {
        task: { task_type: 'blog_research', user_id: 'o' },
      })!.messages.map((m) => m.name),
    ).toEqual(['research_complete']);
    expect(webhookMessagesFor(completed({}), { task: { task_type: 'blog_outline', user_id: 'o' } })).toBeUndefined();
    expect(webhookMessagesFor(completed({}), {})).toBeUndefined();
    expect(isContentTask('blog_medium')).toBe(true);
    expect(isContentTask('blog_research')).toBe(false);
  });

  it('maps usage and cost threshold alerts to quota.warning, other alerts to nothing', () => {
    const alert = (alert_type: string): SourceEvent => ({
      eventId: 'a1',
      type: 'AlertRaised',
      data: {
        alert_key: 'k',
        user_id: 'u9',
        title: 'T',
        message: 'M',
        severity: 'warning',
        alert_type,
        billing_period: '2026-11',
      },
      metadata: {},
      recordedAt: '2026-11-22T10:00:00.000Z',
    });
    expect(webhookMessagesFor(alert('usage_threshold'), {})).toEqual({
      userId: 'u9',
      messages: [
        {
          name: 'quota.warning',
          data: {
            alert_key: 'k',
            title: 'T',
            message: 'M',
            severity: 'warning',
            alert_type: 'usage_threshold',
            billing_period: '2026-11',
          },
        },
      ],
    });
    expect(webhookMessagesFor(alert('cost_threshold'), {})!.messages[0].name).toBe('quota.warning');
    expect(webhookMessagesFor(alert('other'), {})).toBeUndefined();
    expect(webhookMessagesFor({ ...alert('x'), type: 'UsageRecorded' } as SourceEvent, {})).toBeUndefined();
  });

  it('builds payloads with event_type, delivery id, timestamp and data (content only for content_generated)', () => {
    expect(
      buildPayload({ name: 'content_generated', data: { a: 1 }, content: 'C' }, 'd1', '2026-11-22T10:00:00.000Z'),
    ).toEqual({
      event_type: 'content_generated',
      id: 'd1',
      timestamp: '2026-11-22T10:00:00.000Z',
      data: { a: 1 },
      content: 'C',
    });
    expect(buildPayload({ name: 'quota.warning', data: {} }, 'd2', 't')).toEqual({
      event_type: 'quota.warning',
      id: 'd2',
      timestamp: 't',
      data: {},
    });
    expect(withDeliveryId({ event_type: 'x', id: 'd1', data: {} }, 'd3')).toEqual({
      event_type: 'x',
      id: 'd3',
      data: {},
    });
  });

  it('folds an endpoint stream', () => {
    const s = foldEndpoint([
      {
        type: 'WebhookRegistered',
        data: {
          endpoint_id: 'e',
          user_id: 'u',
          url: 'https://a/',
          events: ['quota.warning'],
          secret_hash: 'h',
          family: 'general',
        },
      },
      { type: 'WebhookUpdated', data: { endpoint_id: 'e', user_id: 'u', url: 'https://b/' } },
      { type: 'WebhookDisabled', data: { endpoint_id: 'e', user_id: 'u', reason: '410' } },
    ]);
    expect(s).toMatchObject({ url: 'https://b/', enabled: false, deleted: false, disabled_reason: '410' });
    expect(foldEndpoint([])).toBeUndefined();
  });
});
