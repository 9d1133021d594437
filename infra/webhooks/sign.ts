/**
 * Standard Webhooks signing (https://www.standardwebhooks.com):
 *   webhook-id:        the message id (our delivery id; the same on every retry)
 *   webhook-timestamp: unix seconds of the attempt
 *   webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">
 * keyed with the secret's bytes: for `whsec_<base64>` the base64-decoded part,
 * for any other secret its UTF-8 bytes. The spec's X-SERVICE-Signature
 * carries the same value. docs/webhooks.md shows the receiver's side.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
/** A generated secret's entropy, bytes (Standard Webhooks: 24 to 64). */
export const GENERATED_SECRET_BYTES = 32;

/** A new secret `whsec_<base64 of 32 random bytes>`. */
export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(GENERATED_SECRET_BYTES).toString('base64');
}

/** The HMAC key of a secret. */
export function secretKey(secret: string): Buffer {
  return secret.startsWith(SECRET_PREFIX)
    ? Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64')
    : Buffer.from(secret, 'utf8');
}

/** Why a client-given secret is refused, or undefined when it is usable. */
export function secretProblem(secret: string): string | undefined {
  if (secret.startsWith(SECRET_PREFIX)) {
    const b64 = secret.slice(SECRET_PREFIX.length);
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) return 'a whsec_ secret must be followed by base64';
    const n = Buffer.from(b64, 'base64').length;
    if (n < 24 || n > 64) return 'a whsec_ secret must carry 24 to 64 bytes';
    return undefined;
  }
  if (secret.length < 16) return 'the secret must have at least 16 characters';
  if (secret.length > 256) return 'the secret must have at most 256 characters';
  return undefined;
}

/** Fingerprint stored in events instead of the secret: `sha256:<first 16 hex>` of the secret text. */
export function secretFingerprint(secret: string): string {
  return `sha256:${createHash('sha256').update(secret, 'utf8').digest('hex').slice(0, 16)}`;
}

/** `v1,<base64 signature>` of one message. */
export function sign(secret: string, msgId: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret))
    .update(`${msgId}.${timestampSeconds}.${body}`, 'utf8')
    .digest('base64');
  return `v1,${mac}`;
}

/** The headers of a signed delivery. */
export function signedHeaders(
  secret: string,
  msgId: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  const signature = sign(secret, msgId, timestampSeconds, body);
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signature,
    'X-SERVICE-Signature': signature,
  };
}

/** Largest clock difference a receiver accepts (Standard Webhooks: 5 minutes). */
export const TIMESTAMP_TOLERANCE_SECONDS = 300;

/**
 * Receiver-side check (used by the example script and operators' tools): the
 * timestamp is within tolerance and one of the space-separated `v1,` entries
 * matches, compared in constant time.
 */
export function verify(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const ts = Number(headers.timestamp);
  if (!Number.isInteger(ts) || Math.abs(nowSeconds - ts) > TIMESTAMP_TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(sign(secret, headers.id, ts, body).slice(3), 'base64');
  return headers.signature.split(' ').some((entry) => {
    const [version, sig] = entry.split(',', 2);
    if (version !== 'v1' || !sig) return false;
    const given = Buffer.from(sig, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
