/**
 * Downloads a cover image server-side, safely: every URL (and every redirect,
 * at most 3) passes the SSRF rules of infra/webhooks/ssrf.ts and the request
 * connects to the address that was checked (pinned lookup, so DNS rebinding
 * cannot steer it elsewhere); the body is capped at `maxBytes`, the whole
 * exchange at `timeoutMs`, and the bytes must be a PNG, JPEG, GIF or WebP
 * image (by their signature, not by what the server claims).
 */
import http from 'node:http';
import https from 'node:https';
import { pinnedLookup, resolveWebhookTarget, SsrfOptions, UnsafeWebhookUrlError } from '../webhooks/ssrf';
import { SitebuilderError } from './errors';

export interface ImageFetchOptions {
  ssrf: SsrfOptions;
  maxBytes: number;
  timeoutMs: number;
}

export interface FetchedImage {
  bytes: Buffer;
  mimeType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
  /** The URL the bytes came from (after redirects). */
  finalUrl: string;
}

/** The image type of `b` by its signature, or undefined. */
export function sniffImage(b: Buffer): FetchedImage['mimeType'] | undefined {
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 6 && /^GIF8[79]a$/.test(b.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (
    b.length >= 12 &&
    b.subarray(0, 4).toString('latin1') === 'RIFF' &&
    b.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'image/webp';
  return undefined;
}

const invalid = (message: string, url: string) =>
  new SitebuilderError('INVALID_REQUEST', message, { field: 'cover_image_url', url });

type Hop = { status: number; location?: string; bytes?: Buffer };

async function getOnce(text: string, o: ImageFetchOptions): Promise<Hop> {
  let target;
  try {
    target = await resolveWebhookTarget(text, o.ssrf);
  } catch (e) {
    if (e instanceof UnsafeWebhookUrlError) throw invalid(`cover_image_url refused: ${e.reason}`, text);
    throw e;
  }
  const u = target.url;
  const mod = u.protocol === 'https:' ? https : http;
  return new Promise<Hop>((resolve, reject) => {
    const req = mod.request(
      {
        protocol: u.protocol,
        hostname: u.hostname.replace(/^\[|\]$/g, ''),
        port: u.port || undefined,
        path: `${u.pathname}${u.search}`,
        method: 'GET',
        headers: { accept: 'image/*', 'user-agent': 'content-platform-sitebuilder/1' },
        lookup: pinnedLookup(target),
        agent: false,
        ...(u.protocol === 'https:' ? { servername: u.hostname.replace(/^\[|\]$/g, '') } : {}),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.resume();
          resolve({ status, location: res.headers.location });
          return;
        }
        if (status !== 200) {
          res.resume();
          resolve({ status });
          return;
        }
        const declared = Number(res.headers['content-length'] ?? 0);
        if (declared > o.maxBytes) {
          req.destroy();
          reject(invalid(`the cover image is larger than ${o.maxBytes} bytes (${declared})`, text));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > o.maxBytes) {
            req.destroy();
            reject(invalid(`the cover image is larger than ${o.maxBytes} bytes`, text));
            return;
          }
          chunks.push(c);
        });
        res.on('end', () => resolve({ status, bytes: Buffer.concat(chunks) }));
        res.on('error', (e) => reject(e));
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      reject(new SitebuilderError('VENDOR_TIMEOUT', `the cover image did not download within ${o.timeoutMs} ms`));
    }, o.timeoutMs);
    req.on('close', () => clearTimeout(timer));
    req.on('error', (e: NodeJS.ErrnoException) =>
      reject(
        new SitebuilderError('VENDOR_UNAVAILABLE', `the cover image could not be downloaded: ${e.code ?? e.message}`, {
          url: text,
        }),
      ),
    );
    req.end();
  });
}

export async function fetchImage(url: string, o: ImageFetchOptions): Promise<FetchedImage> {
  let current = url;
  for (let hop = 0; hop <= 3; hop++) {
    const r = await getOnce(current, o);
    if (r.location) {
      current = new URL(r.location, current).toString();
      continue;
    }
    if (r.status >= 500)
      throw new SitebuilderError('VENDOR_UNAVAILABLE', `the cover image host answered HTTP ${r.status}`);
    if (r.status !== 200 || !r.bytes) throw invalid(`the cover image could not be downloaded (HTTP ${r.status})`, url);
    const mimeType = sniffImage(r.bytes);
    if (!mimeType) throw invalid('cover_image_url is not a PNG, JPEG, GIF or WebP image', url);
    return { bytes: r.bytes, mimeType, finalUrl: current };
  }
  throw invalid('cover_image_url redirects more than 3 times', url);
}
