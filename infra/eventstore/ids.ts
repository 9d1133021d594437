/**
 * Event ids derived from idempotency keys: the same key always gives the same
 * UUID, so a retried write (an activity attempt, a redelivered message)
 * appends once with appendOnce.
 */
import { createHash } from 'node:crypto';

/** A UUID derived from a string (SHA-1, version bits set). The `usage:` salt is historical; ids stay stable. */
export function uuidFromKey(key: string): string {
  const h = createHash('sha1').update(`usage:${key}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
