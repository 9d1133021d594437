/**
 * The key that encrypts webhook signing secrets (WEBHOOK_SECRET_KEY, 32 bytes
 * base64). In production it must be set (and be the same for the API and the
 * worker). In development and test, when unset, one is generated once and
 * kept in .run/webhook-secret.key so every local process shares it.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../paths';
import type { Config } from '../config';

export const DEV_KEY_FILE = path.join(projectRoot(), '.run/webhook-secret.key');

export function decodeKey(text: string, source: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32)
    throw new Error(`Invalid configuration: ${source} must be 32 bytes in base64 (got ${key.length} bytes)`);
  return key;
}

export function webhookSecretKey(c: Pick<Config, 'WEBHOOK_SECRET_KEY' | 'NODE_ENV'>, file = DEV_KEY_FILE): Buffer {
  return configuredKey(c.WEBHOOK_SECRET_KEY, 'WEBHOOK_SECRET_KEY', c.NODE_ENV, file);
}

/**
 * A 32-byte key from the configuration variable `variable` (base64). Required
 * in production; in development and test, when unset, generated once into
 * `file` (shared by every local process). Also used for other keys at rest
 * (the site builder's token key).
 */
export function configuredKey(value: string, variable: string, nodeEnv: string, file: string): Buffer {
  if (value) return decodeKey(value, variable);
  if (nodeEnv === 'production')
    throw new Error(
      `Invalid configuration: ${variable} must be set in production (32 bytes base64, e.g. \`openssl rand -base64 32\`)`,
    );
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    // 'wx': the first process creates it; the others read what it wrote.
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (e) {
    if ((e as { code?: string }).code !== 'EEXIST') throw e;
  }
  return decodeKey(readFileSync(file, 'utf8'), file);
}
