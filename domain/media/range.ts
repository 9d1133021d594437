/**
 * HTTP Range requests (RFC 9110 §14) on stored files, as pure decisions.
 * One byte range is served as 206; several ranges, or a header we cannot
 * read, are ignored and the whole file is sent (the RFC allows a server to
 * ignore Range); a range starting past the end is 416.
 */
export type RangeDecision =
  { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

export function decideRange(header: string | undefined, size: number): RangeDecision {
  if (!header) return { kind: 'full' };
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m || (m[1] === '' && m[2] === '')) return { kind: 'full' };
  if (m[1] === '') {
    // Suffix range: the last N bytes.
    const n = Number(m[2]);
    if (n === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return { kind: 'full' }; // invalid: ignore
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end };
}

/** True when an If-None-Match / If-Range list names `etag` (weak comparison for If-None-Match, as the RFC says). */
export function etagListMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => bare(t) === bare(etag));
}

/** If-Range: the range applies only when the validator is our (strong) ETag; a date or another tag means "send all". */
export function ifRangeAllows(header: string | undefined, etag: string): boolean {
  if (!header) return true;
  const t = header.trim();
  return !t.startsWith('W/') && t === etag;
}
