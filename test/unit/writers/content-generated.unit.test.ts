/** Every writer generation is a content task: its TaskCompleted produces content.generated (and content_generated with the text); batches do not. */
import { isContentTask, webhookMessagesFor, SourceEvent } from '../../../domain/webhooks/catalogue';
import { WRITER_CONTENT_TASK_TYPES, writerBatchTaskType } from '../../../domain/writers/task-types';

const completed = (result: Record<string, unknown>) =>
  ({
    type: 'TaskCompleted',
    data: { task_id: 't-1', result },
    eventId: 'e-1',
    metadata: { user_id: 'u-1' },
    recordedAt: '2026-11-23T00:00:00.000Z',
  }) as SourceEvent;

describe('writers in the webhook catalogue', () => {
  it('lists all twelve generation task types as content tasks, and not the batches', () => {
    expect([...WRITER_CONTENT_TASK_TYPES].sort()).toEqual([
      'profnet_article',
      'profnet_carousel',
      'profnet_post',
      'profnet_video_post',
      'socialnet_ad_copy',
      'socialnet_carousel',
      'socialnet_event',
      'socialnet_group_post',
      'socialnet_page_about',
      'socialnet_post',
      'socialnet_reel',
      'socialnet_story',
    ]);
    for (const t of WRITER_CONTENT_TASK_TYPES) expect(isContentTask(t)).toBe(true);
    expect(isContentTask(writerBatchTaskType('profnet'))).toBe(false);
    expect(isContentTask(writerBatchTaskType('socialnet'))).toBe(false);
  });

  it('a completed page-about task produces content.generated and content_generated with its text', () => {
    const out = webhookMessagesFor(completed({ text: 'We bake bread.', content: { text: 'We bake bread.' } }), {
      task: { task_type: 'socialnet_page_about', user_id: 'u-1' },
    });
    expect(out?.userId).toBe('u-1');
    expect(out?.messages.map((m) => m.name)).toEqual(['content.generated', 'content_generated']);
    expect(out?.messages[1].content).toBe('We bake bread.');
  });
});
