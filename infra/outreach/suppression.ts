/**
 * The suppression list writer: the enforcement row (outreach_suppression_index,
 * which the policy engine reads) and the OutreachSuppressionAdded event are
 * written in ONE transaction, so a suppression the client was told about is
 * enforced by the very next policy check. Adding an entry that is already
 * there changes nothing and appends nothing.
 */
import type { EventMetadata, EventStore, RecordedEvent } from '../eventstore/port';
import { sqlTransaction } from '../eventstore/postgres';
import { suppressionStream, SuppressionSource } from '../../domain/events/outreach';

export interface SuppressionInput {
  userId: string;
  workspaceId: string;
  /** Lower-case address or `@domain` (domain/outreach/normalize.ts suppressionEntry). */
  entry: string;
  kind: 'address' | 'domain';
  reason: string | null;
  source: SuppressionSource;
}

export async function addSuppression(
  store: EventStore,
  s: SuppressionInput,
  meta: EventMetadata = {},
): Promise<{ added: boolean; events: RecordedEvent[] }> {
  return store.transaction(async (tx) => {
    const trx = sqlTransaction(tx);
    const r = await trx.raw(
      `INSERT INTO outreach_suppression_index (user_id, workspace_id, entry) VALUES (?, ?, ?)
       ON CONFLICT DO NOTHING RETURNING entry`,
      [s.userId, s.workspaceId, s.entry],
    );
    if (r.rows.length === 0) return { added: false, events: [] };
    const a = await tx.append(
      suppressionStream(s.userId, s.workspaceId),
      [
        {
          type: 'OutreachSuppressionAdded',
          data: {
            user_id: s.userId,
            workspace_id: s.workspaceId,
            entry: s.entry,
            kind: s.kind,
            reason: s.reason,
            source: s.source,
          },
        },
      ],
      'any',
      { ...meta, user_id: s.userId },
    );
    return { added: true, events: a.events };
  });
}
