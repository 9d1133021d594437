/**
 * AWS Signature Version 4 for S3-compatible object stores (AWS S3, MinIO,
 * Ceph, R2, s3rver, ...): the `Authorization` header of one request. The
 * payload hash is sent as `x-amz-content-sha256` (S3 requires it).
 */
import { createHash, createHmac } from 'node:crypto';

export interface SigningInput {
  method: string;
  /** Absolute URL of the request. */
  url: string;
  /** Headers to sign besides host, x-amz-date and x-amz-content-sha256 (lower-case names). */
  headers?: Record<string, string>;
  payloadHash: string;
  region: string;
  service?: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `YYYYMMDDTHHMMSSZ` */
  amzDate: string;
}

export const sha256Hex = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding of one path segment or query part, as SigV4 wants it. */
const enc = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export const amzDateOf = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** The headers to send: the given ones plus host, x-amz-date, x-amz-content-sha256 and authorization. */
export function signRequest(i: SigningInput): Record<string, string> {
  const u = new URL(i.url);
  const headers: Record<string, string> = {
    ...Object.fromEntries(Object.entries(i.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v.trim()])),
    host: u.host,
    'x-amz-date': i.amzDate,
    'x-amz-content-sha256': i.payloadHash,
  };
  const names = Object.keys(headers).sort();
  const canonicalUri = u.pathname
    .split('/')
    .map((seg) => enc(decodeURIComponent(seg)))
    .join('/');
  const query = [...u.searchParams.entries()]
    .map(([k, v]) => [enc(k), enc(v)])
    .sort(([a, b], [c, d]) => (a === c ? (b < d ? -1 : 1) : a < c ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonical = [
    i.method.toUpperCase(),
    canonicalUri || '/',
    query,
    names.map((n) => `${n}:${headers[n]}\n`).join(''),
    names.join(';'),
    i.payloadHash,
  ].join('\n');
  const day = i.amzDate.slice(0, 8);
  const service = i.service ?? 's3';
  const scope = `${day}/${i.region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', i.amzDate, scope, sha256Hex(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${i.secretAccessKey}`, day), i.region), service), 'aws4_request');
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${i.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`,
  };
}
