/**
 * S3-compatible adapter of the image storage port: path-style requests
 * (`<endpoint>/<bucket>/<prefix><key>`, what MinIO, Ceph, s3rver and AWS all
 * accept) signed with SigV4 (./sigv4.ts), over fetch. Objects are written
 * once per key (content addressed); reads pass Range through to the store.
 */
import { assertKey, describe, ImageExt, ImageStorage, keyOf, StoredImage, EXT_CONTENT_TYPE } from './port';
import { amzDateOf, sha256Hex, signRequest } from './sigv4';

export interface S3Settings {
  /** e.g. https://s3.eu-west-1.amazonaws.com or http://127.0.0.1:9000 */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Prepended to every key, e.g. `images/`. */
  prefix?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const EMPTY_HASH = sha256Hex('');

export class S3Error extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'S3Error';
  }
}

export function createS3ImageStorage(s: S3Settings): ImageStorage {
  const base = s.endpoint.replace(/\/+$/, '');
  const doFetch = s.fetch ?? fetch;
  const urlOf = (key?: string) => `${base}/${encodeURIComponent(s.bucket)}${key ? `/${s.prefix ?? ''}${key}` : ''}`;
  async function send(
    method: string,
    url: string,
    opts: { body?: Buffer; headers?: Record<string, string>; payloadHash?: string } = {},
  ): Promise<Response> {
    const headers = signRequest({
      method,
      url,
      headers: opts.headers,
      payloadHash: opts.payloadHash ?? EMPTY_HASH,
      region: s.region,
      accessKeyId: s.accessKeyId,
      secretAccessKey: s.secretAccessKey,
      amzDate: amzDateOf(new Date()),
    });
    delete headers.host; // fetch sets it from the URL
    return doFetch(url, {
      method,
      headers,
      body: opts.body ? new Uint8Array(opts.body) : undefined,
      signal: AbortSignal.timeout(s.timeoutMs ?? 30_000),
    });
  }
  const fail = async (r: Response, what: string) =>
    new S3Error(r.status, `S3 ${what} failed: HTTP ${r.status} ${(await r.text()).replace(/\s+/g, ' ').slice(0, 200)}`);

  return {
    kind: 's3',
    async put(bytes: Buffer, ext: ImageExt): Promise<StoredImage> {
      const { key, hash } = keyOf(bytes, ext);
      const url = urlOf(key);
      const head = await send('HEAD', url);
      if (head.ok) return describe(key, Number(head.headers.get('content-length') ?? bytes.length));
      const r = await send('PUT', url, {
        body: bytes,
        payloadHash: hash,
        headers: { 'content-type': EXT_CONTENT_TYPE[ext], 'content-length': String(bytes.length) },
      });
      if (!r.ok) throw await fail(r, `PUT ${key}`);
      await r.arrayBuffer();
      return describe(key, bytes.length);
    },
    async stat(key: string) {
      assertKey(key);
      const r = await send('HEAD', urlOf(key));
      if (r.status === 404) return undefined;
      if (!r.ok) throw await fail(r, `HEAD ${key}`);
      return describe(key, Number(r.headers.get('content-length') ?? 0));
    },
    async read(key: string, range?: { start: number; end: number }) {
      assertKey(key);
      const r = await send('GET', urlOf(key), range ? { headers: { range: `bytes=${range.start}-${range.end}` } } : {});
      if (r.status === 404) return undefined;
      if (!r.ok) throw await fail(r, `GET ${key}`);
      return Buffer.from(await r.arrayBuffer());
    },
    async check() {
      const r = await send('HEAD', urlOf());
      if (!r.ok) throw new S3Error(r.status, `S3 bucket ${s.bucket} is not reachable: HTTP ${r.status}`);
    },
  };
}

/** Creates the bucket when it does not exist (start-up of a fresh deployment, tests). */
export async function ensureS3Bucket(s: S3Settings): Promise<void> {
  const storage = createS3ImageStorage(s);
  try {
    await storage.check();
    return;
  } catch (e) {
    if (!(e instanceof S3Error) || e.status !== 404) throw e;
  }
  const url = `${s.endpoint.replace(/\/+$/, '')}/${encodeURIComponent(s.bucket)}`;
  const headers = signRequest({
    method: 'PUT',
    url,
    payloadHash: EMPTY_HASH,
    region: s.region,
    accessKeyId: s.accessKeyId,
    secretAccessKey: s.secretAccessKey,
    amzDate: amzDateOf(new Date()),
  });
  delete headers.host;
  const r = await (s.fetch ?? fetch)(url, { method: 'PUT', headers });
  if (!r.ok && r.status !== 409)
    throw new S3Error(r.status, `S3 could not create bucket ${s.bucket}: HTTP ${r.status}`);
}
