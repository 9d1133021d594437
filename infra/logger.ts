/**
 * The platform's pino logger. Credentials never reach a log line: the redact
 * paths cover headers, bodies and fields that can carry keys, secrets, tokens
 * or values derived from them (hashes, fingerprints, ciphertexts).
 *
 * Lines go to standard output through a buffer of `bufferBytes` (LOG_BUFFER_BYTES):
 * a write system call per line cost an API process a tenth of its busy time under
 * load (docs/benchmarks.md). The buffer is written when it fills, every second, and
 * synchronously when the process exits (pino registers the exit flush), so a
 * stopped or crashing process loses nothing; only a SIGKILL can lose the last
 * second. `bufferBytes: 0` writes every line at once.
 */
import pino, { Logger } from 'pino';
import { LOG_SECRET_FIELDS, REDACTED } from '../domain/redaction';

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  // The platform's one list of secret-bearing names (domain/redaction.ts), at the top of a line's object and one
  // level down.
  ...LOG_SECRET_FIELDS.flatMap((k) => [k, `*.${k}`]),
];

/** How often a partly filled buffer is written. */
const FLUSH_MS = 1000;

export function createLogger(
  name: string,
  level = process.env.LOG_LEVEL ?? 'info',
  bufferBytes = Number(process.env.LOG_BUFFER_BYTES ?? 0),
): Logger {
  const options = { name, level, redact: { paths: REDACT_PATHS, censor: REDACTED } };
  if (!(bufferBytes > 0)) return pino(options);
  const destination = pino.destination({ dest: 1, minLength: bufferBytes, sync: false });
  setInterval(() => {
    try {
      destination.flush();
    } catch {
      // The stream was closed (the process is ending): nothing left to write.
    }
  }, FLUSH_MS).unref();
  return pino(options, destination);
}
