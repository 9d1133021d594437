/**
 * Conditional answers of polled reads (RouteDef.etag; docs/api.md, "Polling
 * a task"). The weak ETag is a hash of the JSON of `data` — not of the whole
 * body, whose request id, timestamp and rate-limit figures change on every
 * answer — so an unchanged task gets the same tag, and a request that names
 * it in `If-None-Match` is answered `304` without a body. The data is
 * serialised once: the same text is hashed and, spliced into the envelope,
 * sent.
 */
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { sendJson } from './respond';

/** Whether an If-None-Match header names `tag` (weak comparison, RFC 9110 §13.1.2) or is `*`. */
export function noneMatch(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  const opaque = tag.replace(/^W\//, '');
  return header.split(',').some((t) => {
    const v = t.trim();
    return v === '*' || v.replace(/^W\//, '') === opaque;
  });
}

export const etagOf = (json: string) => `W/"${createHash('sha1').update(json).digest('base64url')}"`;

/** Sends `data` (wrapped by `wrap`) with its ETag, or 304 when the request already has it. */
export function sendConditional(req: Request, res: Response, data: unknown, wrap: (data: unknown) => unknown): void {
  const json = JSON.stringify(data ?? null);
  const tag = etagOf(json);
  res.setHeader('ETag', tag);
  if (noneMatch(req.header('if-none-match'), tag)) {
    res.status(304).end();
    return;
  }
  // The envelope is serialised around a marker that stands for the data, then the data's text takes its place.
  const marker = `\u0000data-${process.pid}-${Date.now()}\u0000`;
  const wrapped = wrap(marker);
  let body: string;
  if (wrapped === marker) body = json;
  else {
    const around = JSON.stringify(wrapped);
    const at = around.indexOf(JSON.stringify(marker));
    body =
      at < 0
        ? JSON.stringify(wrap(data))
        : around.slice(0, at) + json + around.slice(at + JSON.stringify(marker).length);
  }
  sendJson(res, 200, body, true);
}
