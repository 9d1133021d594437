/**
 * Activities of the professional-network and social-network writers
 * (workflows/writers.ts): research sources for a brief, one metered AI call
 * for the draft (the vendor's JSON, or the `local` writer's), the finishing
 * rules, and the signed notification of a finished batch. AI calls go
 * through the gateway under the activity's idempotency key, so a retried
 * call is charged once.
 */
import type { AiGateway } from '../infra/ai/completion';
import type { ResearchProvider } from '../infra/research';
import type { EventStore, NewEvent } from '../infra/eventstore';
import { uuidFromKey } from '../infra/eventstore/ids';
import { signedHeaders } from '../infra/webhooks/sign';
import { AllowEntry, Resolver, resolveWebhookTarget, UnsafeWebhookUrlError } from '../infra/webhooks/ssrf';
import { postPinned } from '../infra/webhooks/http';
import type { WebhookSecretStore } from '../infra/webhooks/secrets';
import { parseRetryAfter } from '../domain/webhooks/schedule';
import { writerBatchStream } from '../domain/events/writers';
import { researchQuery } from '../domain/writers/briefs';
import { finishDraft } from '../domain/writers/finish';
import { WRITER_DRAFTS } from '../domain/writers/tasks';
import type { Source, WriterBrief, WriterJob } from '../domain/writers/types';
import type { WriterResult } from '../domain/writers/result';
import type { Coverage } from '../domain/generation';
import { batchSecretKey } from '../domain/writers/task-types';
import { ask, numbered, takeCoverage } from './ai-call';
import { activityKey, currentWorkflowId } from './tasks';

export interface BatchNotifyDeps {
  /** Where each batch's signing secret is kept (stored by the API under `writer-batch:<batch_id>`). */
  secrets: WebhookSecretStore;
  /** SSRF allow-list (WEBHOOK_ALLOW_PRIVATE_HOSTS). */
  allow: AllowEntry[];
  /** Seconds before each attempt (WEBHOOK_RETRY_SCHEDULE). */
  schedule: number[];
  attemptTimeoutMs: number;
  resolve?: Resolver;
  now?: () => Date;
}

export interface WriterActivityDeps {
  gateway: AiGateway;
  research: ResearchProvider;
  store: EventStore;
  /** Batch notifications; absent: a batch with notification_webhook fails its notification as not configured. */
  notify?: BatchNotifyDeps;
}

/** Sources looked up per generation. */
export const SOURCES_PER_PIECE = 5;

/** The id of a batch's notification message (`webhook-id`): the same on every attempt. */
export const batchMessageId = (batchId: string) => uuidFromKey(`writer-batch-notification:${batchId}`);

export interface DraftOutcome {
  draft: unknown;
  usage: {
    provider: string;
    model: string;
    offline: boolean;
    tokens_in: number;
    tokens_out: number;
    cost: number;
    token_source: string;
  };
  /** The offline writer's account of how it met the brief (compose.ts), taken out of its draft; absent for vendors. */
  coverage?: Coverage;
}

export function createWriterActivities(deps: WriterActivityDeps) {
  const now = () => deps.notify?.now?.() ?? new Date();
  const append = async (stream: string, event: NewEvent, userId: string) => {
    const key = activityKey();
    await deps.store.appendOnce(
      stream,
      { ...event, eventId: uuidFromKey(`writer:${key}`) },
      { user_id: userId, workflow_id: currentWorkflowId(), causation_id: key },
    );
  };
  return {
    /** The research provider's best sources for the brief, numbered 1..n (the [n] the draft may cite). */
    async writerSources(a: { brief: WriterBrief }): Promise<Source[]> {
      if (!a.brief.research) return [];
      return numbered(await deps.research.search(researchQuery(a.brief), { limit: SOURCES_PER_PIECE }));
    },

    /** One metered call: the vendor is asked for the kind's JSON draft; `local` writes it offline. */
    async writeWriterDraft(a: { userId: string; brief: WriterBrief; sources: Source[] }): Promise<DraftOutcome> {
      const { output: draft, response: resp } = await ask(
        deps.gateway,
        WRITER_DRAFTS[a.brief.kind],
        { brief: a.brief, sources: a.sources },
        { userId: a.userId, idempotencyKey: activityKey() },
      );
      const coverage = takeCoverage(resp, draft);
      return {
        draft,
        ...(coverage ? { coverage } : {}),
        usage: {
          provider: resp.provider,
          model: resp.model,
          offline: resp.metadata.offline,
          tokens_in: resp.tokens_in,
          tokens_out: resp.tokens_out,
          cost: resp.cost,
          token_source: resp.metadata.token_source,
        },
      };
    },

    /** The finishing rules and the response body of one generation (pure, the same for every provider). */
    async finishWriterPiece(a: {
      taskId: string;
      job: WriterJob;
      outcome: DraftOutcome;
      sources: Source[];
    }): Promise<WriterResult> {
      const b = a.job.brief;
      const piece = finishDraft(b, a.outcome.draft, a.sources, a.job.render);
      return {
        success: true,
        task_id: a.taskId,
        platform: b.platform,
        content_type: b.kind,
        text: piece.text,
        content: piece.content,
        ...(piece.engagement
          ? {
              engagement_prediction: piece.engagement.engagement_prediction,
              engagement_factors: piece.engagement.factors,
            }
          : {}),
        limits: piece.limits,
        rendering: piece.rendering,
        sources: a.sources,
        defaults_applied: a.job.defaultsApplied,
        metadata: {
          ...a.outcome.usage,
          research_provider: b.research ? deps.research.name : 'none',
          generated_at: now().toISOString(),
          workflow_id: currentWorkflowId(),
          ...(a.outcome.coverage ? { coverage: a.outcome.coverage } : {}),
        },
      };
    },

    /** WriterBatchAccepted: what the batch holds (the batch status routes read it). */
    async acceptBatch(a: {
      batchId: string;
      userId: string;
      platform: string;
      types: string[];
      notificationUrl: string | null;
    }): Promise<void> {
      await append(
        writerBatchStream(a.batchId),
        {
          type: 'WriterBatchAccepted',
          data: {
            batch_id: a.batchId,
            user_id: a.userId,
            platform: a.platform,
            total: a.types.length,
            types: a.types,
            notification_url: a.notificationUrl,
          },
        },
        a.userId,
      );
    },

    /** The schedule this worker retries notifications on, and the message id. */
    async openBatchNotification(a: { batchId: string }): Promise<{ schedule: number[]; messageId: string }> {
      return { schedule: [...(deps.notify?.schedule ?? [0])], messageId: batchMessageId(a.batchId) };
    },

    /**
     * One attempt: SSRF re-check of the URL, Standard Webhooks signature with
     * the batch's secret, POST to the checked address. HTTP failures are results.
     */
    async attemptBatchNotification(a: {
      batchId: string;
      url: string;
      messageId: string;
      payload: Record<string, unknown>;
    }): Promise<{
      outcome: 'succeeded' | 'failed' | 'gone' | 'blocked';
      statusCode: number | null;
      error: string | null;
      retryAfterSeconds?: number;
    }> {
      const n = deps.notify;
      if (!n)
        return { outcome: 'blocked', statusCode: null, error: 'batch notifications are not configured on this worker' };
      let target;
      try {
        target = await resolveWebhookTarget(a.url, { allow: n.allow, resolve: n.resolve });
      } catch (e) {
        if (e instanceof UnsafeWebhookUrlError)
          return {
            outcome: /does not resolve/.test(e.reason) ? 'failed' : 'blocked',
            statusCode: null,
            error: e.reason,
          };
        throw e;
      }
      const secret = await n.secrets.get(batchSecretKey(a.batchId));
      if (!secret) return { outcome: 'blocked', statusCode: null, error: 'no signing secret stored for the batch' };
      const body = JSON.stringify(a.payload);
      const headers = signedHeaders(secret, a.messageId, Math.floor(now().getTime() / 1000), body);
      const r = await postPinned(target, headers, body, n.attemptTimeoutMs);
      const code = r.statusCode;
      const retryAfterSeconds = parseRetryAfter(r.retryAfter, now());
      return {
        outcome: code !== null && code >= 200 && code < 300 ? 'succeeded' : code === 410 ? 'gone' : 'failed',
        statusCode: code,
        error: r.error,
        ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
      };
    },

    async recordBatchNotification(a: {
      batchId: string;
      userId: string;
      messageId: string;
      attempt: number;
      statusCode: number | null;
      outcome: 'succeeded' | 'failed' | 'blocked';
      error: string | null;
    }): Promise<void> {
      await append(
        writerBatchStream(a.batchId),
        {
          type: 'WriterBatchNotificationAttempted',
          data: {
            batch_id: a.batchId,
            user_id: a.userId,
            message_id: a.messageId,
            attempt: a.attempt,
            status_code: a.statusCode,
            outcome: a.outcome,
            error: a.error === null ? null : a.error.slice(0, 500),
          },
        },
        a.userId,
      );
    },

    async finishBatchNotification(a: {
      batchId: string;
      userId: string;
      messageId: string;
      status: 'delivered' | 'failed';
      attempts: number;
    }): Promise<void> {
      await append(
        writerBatchStream(a.batchId),
        {
          type: 'WriterBatchNotificationFinished',
          data: {
            batch_id: a.batchId,
            user_id: a.userId,
            message_id: a.messageId,
            status: a.status,
            attempts: a.attempts,
          },
        },
        a.userId,
      );
    },
  };
}

export type WriterActivities = ReturnType<typeof createWriterActivities>;
