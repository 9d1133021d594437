/**
 * RFC 8058 one-click unsubscribe links. Each message carries
 * `List-Unsubscribe: <https://<public base>/api/v1/backlink-outreach/unsubscribe/<token>>` and
 * `List-Unsubscribe-Post: List-Unsubscribe=One-Click`; the token is the attempt id and an HMAC-SHA256 of it
 * (first 16 bytes, base64url), so a link cannot be forged for another recipient. The key comes from
 * OUTREACH_UNSUBSCRIBE_SECRET (in development and test, generated once into .run/outreach-unsubscribe.key so
 * the worker, which writes links, and the API, which checks them, share it).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../paths';

export const UNSUBSCRIBE_PATH = '/api/v1/backlink-outreach/unsubscribe';
export const DEV_UNSUBSCRIBE_KEY_FILE = path.join(projectRoot(), '.run/outreach-unsubscribe.key');

const mac = (key: Buffer, attemptId: string) =>
  createHmac('sha256', key).update(`unsubscribe:${attemptId}`).digest().subarray(0, 16).toString('base64url');

export function unsubscribeToken(key: Buffer, attemptId: string): string {
  return `${attemptId}.${mac(key, attemptId)}`;
}

/** The attempt id of a valid token, else undefined. */
export function verifyUnsubscribeToken(key: Buffer, token: string): string | undefined {
  const dot = token.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const id = token.slice(0, dot);
  const want = Buffer.from(mac(key, id));
  const got = Buffer.from(token.slice(dot + 1));
  return want.length === got.length && timingSafeEqual(want, got) ? id : undefined;
}

export const unsubscribeUrl = (base: string, key: Buffer, attemptId: string) =>
  `${base.replace(/\/+$/, '')}${UNSUBSCRIBE_PATH}/${unsubscribeToken(key, attemptId)}`;

/** The key: the configured secret, or (outside production) the one kept in .run/. */
export function unsubscribeKey(secret: string, production: boolean, file = DEV_UNSUBSCRIBE_KEY_FILE): Buffer {
  if (secret) return Buffer.from(secret, 'utf8');
  if (production)
    throw new Error(
      'Invalid configuration: OUTREACH_UNSUBSCRIBE_SECRET must be set in production (a long random string)',
    );
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (e) {
    if ((e as { code?: string }).code !== 'EEXIST') throw e;
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'utf8');
}
