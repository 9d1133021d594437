/**
 * Credential texts. Each carries its kind and public id, so the API can find
 * the credential's stream without a table scan; the secret part is 256 random
 * bits; only the SHA-256 of the whole text is stored.
 *
 *   API key (production)    cp_live_<prefix>_<secret>     prefix: 12 base62 chars = key_id
 *   API key (development)   cp_test_<prefix>_<secret>
 *   session token           cps_<session_id>_<secret>     (outreach and image studio families)
 *   OAuth access token      cpo_<token_id>_<secret>       (calendar family; issued by /v1/calendar/oauth/token)
 *
 * secret: 43 base64url characters.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { CredentialKind } from '../../domain/identity';
import type { KeyEnvironment } from '../../domain/events/identity';

const B62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** n random base62 characters (rejection sampling, no modulo bias). */
export function randomBase62(n: number): string {
  let out = '';
  while (out.length < n) {
    for (const b of randomBytes(n * 2)) {
      if (b < 248 && out.length < n) out += B62[b % 62];
    }
  }
  return out;
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const secret = () => randomBytes(32).toString('base64url');

export interface NewCredential {
  id: string;
  text: string;
  hash: string;
}

export function newApiKey(environment: KeyEnvironment): NewCredential {
  const id = randomBase62(12);
  const text = `cp_${environment === 'production' ? 'live' : 'test'}_${id}_${secret()}`;
  return { id, text, hash: sha256(text) };
}

export function newSessionToken(): NewCredential {
  const id = randomBase62(16);
  const text = `cps_${id}_${secret()}`;
  return { id, text, hash: sha256(text) };
}

export function newOAuthToken(): NewCredential {
  const id = randomBase62(16);
  const text = `cpo_${id}_${secret()}`;
  return { id, text, hash: sha256(text) };
}

export interface ParsedCredential {
  kind: CredentialKind;
  id: string;
  hash: string;
  /** API keys only. */
  environment?: KeyEnvironment;
}

const KEY = /^cp_(live|test)_([A-Za-z0-9]{12})_[A-Za-z0-9_-]{43}$/;
const TOKEN = /^(cps|cpo)_([A-Za-z0-9]{16})_[A-Za-z0-9_-]{43}$/;

/** Recognises a credential text; undefined when it has none of the shapes. */
export function parseCredential(text: string): ParsedCredential | undefined {
  const k = KEY.exec(text);
  if (k)
    return {
      kind: 'api_key',
      id: k[2],
      hash: sha256(text),
      environment: k[1] === 'live' ? 'production' : 'development',
    };
  const t = TOKEN.exec(text);
  if (t) return { kind: t[1] === 'cps' ? 'session' : 'oauth', id: t[2], hash: sha256(text) };
  return undefined;
}
