/** The webhook names the content routes produce (domain/webhooks/catalogue.ts). */
import { isContentTask, SourceEvent, webhookMessagesFor } from '../../../domain/webhooks/catalogue';

const completed = (result: Record<string, unknown>): SourceEvent => ({
  eventId: 'e1',
  type: 'TaskCompleted',
  data: { task_id: 't1', result },
  metadata: { user_id: 'u' },
  recordedAt: '2026-01-01T00:00:00.000Z',
});
const names = (taskType: string, result: Record<string, unknown> = { content: 'x' }) =>
  webhookMessagesFor(completed(result), { task: { task_type: taskType, user_id: 'u' } })?.messages.map((m) => m.name);

describe('content webhooks', () => {
  it('every generating route completes with content.generated', () => {
    for (const t of [
      'blog_writer',
      'blog_writer_research',
      'profnet_post',
      'keyword_research',
      'content_strategy',
      'content_personas',
      'content_generation',
      'content_batch',
    ]) {
      expect(isContentTask(t)).toBe(true);
      expect(names(t)).toEqual(expect.arrayContaining(['content.generated', 'content_generated']));
    }
  });
  it('research also says research_complete; strategy also strategy.updated; syncs say nothing', () => {
    expect(names('blog_writer_research')).toEqual(['research_complete', 'content.generated', 'content_generated']);
    expect(names('content_strategy', { strategy: {} })).toEqual([
      'content.generated',
      'content_generated',
      'strategy.updated',
    ]);
    expect(names('performance_sync')).toBeUndefined();
    expect(names('blog_research')).toEqual(['research_complete']);
  });
  it('an integration action is a user_action for its user', () => {
    const e: SourceEvent = {
      eventId: 'e2',
      type: 'IntegrationActionRecorded',
      data: {
        action_id: 'a1',
        user_id: 'u9',
        integration: 'search_console',
        action: 'connected',
        route: 'PUT /api/seo-dashboard/search-console',
        details: { site_url: null },
      },
      metadata: {},
      recordedAt: '2026-01-01T00:00:00.000Z',
    };
    expect(webhookMessagesFor(e, {})).toEqual({
      userId: 'u9',
      messages: [
        {
          name: 'user_action',
          data: {
            action_id: 'a1',
            integration: 'search_console',
            action: 'connected',
            route: 'PUT /api/seo-dashboard/search-console',
            details: { site_url: null },
          },
        },
      ],
    });
  });
});
