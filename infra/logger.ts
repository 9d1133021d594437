/**
 * The platform's pino logger. Credentials never reach a log line: the redact
 * paths cover headers, bodies and fields that can carry keys, secrets or tokens.
 */
import pino, { Logger } from 'pino';

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.secret',
  '*.api_key',
  '*.apiKey',
  '*.key',
  '*.token',
  '*.access_token',
  '*.refresh_token',
  '*.client_secret',
];

export function createLogger(name: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({ name, level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } });
}
