/**
 * One delivery attempt over HTTP: POST the body to the checked address
 * (pinned lookup, TLS still verified against the URL's host name), no
 * redirects followed, a hard time-out for the whole exchange, and at most
 * 4 KiB of the response read (for the error text).
 */
import http from 'node:http';
import https from 'node:https';
import { pinnedLookup, ResolvedTarget } from './ssrf';

export interface HttpOutcome {
  /** Null when no response arrived (connection refused, time-out, TLS error). */
  statusCode: number | null;
  /** Retry-After header as sent. */
  retryAfter?: string;
  /** Short reason for failures (never contains the secret or headers). */
  error: string | null;
}

const MAX_BODY = 4096;

export function postPinned(
  target: ResolvedTarget,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<HttpOutcome> {
  const u = target.url;
  const mod = u.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const done = (o: HttpOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(o);
    };
    const req = mod.request(
      {
        protocol: u.protocol,
        hostname: u.hostname.replace(/^\[|\]$/g, ''),
        port: u.port || undefined,
        path: `${u.pathname}${u.search}`,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'content-platform-webhooks/1',
          'content-length': String(Buffer.byteLength(body)),
          ...headers,
        },
        lookup: pinnedLookup(target),
        agent: false,
        ...(u.protocol === 'https:' ? { servername: u.hostname.replace(/^\[|\]$/g, '') } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < MAX_BODY) chunks.push(c);
          size += c.length;
        });
        const finish = () => {
          const code = res.statusCode ?? null;
          const ok = code !== null && code >= 200 && code < 300;
          const text = Buffer.concat(chunks).toString('utf8').slice(0, 200).replace(/\s+/g, ' ').trim();
          const ra = res.headers['retry-after'];
          done({
            statusCode: code,
            ...(ra ? { retryAfter: Array.isArray(ra) ? ra[0] : ra } : {}),
            error: ok ? null : `HTTP ${code}${text ? `: ${text}` : ''}`,
          });
        };
        res.on('end', finish);
        res.on('error', finish);
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`timed out after ${timeoutMs} ms`));
      done({ statusCode: null, error: `timed out after ${timeoutMs} ms` });
    }, timeoutMs);
    req.on('error', (e: NodeJS.ErrnoException) =>
      done({ statusCode: null, error: e.code ? `${e.code}: ${e.message}` : e.message }),
    );
    req.end(body);
  });
}
