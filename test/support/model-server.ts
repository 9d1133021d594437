/**
 * A model server of the test's own (scripts/model-server on a free loopback port), for a test whose measure
 * needs the server to itself: the server answers one request at a time, so on the run's shared server a
 * timing would also count other test files' generations.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './processes';

const root = path.resolve(__dirname, '../..');
const run = promisify(execFile);

export interface PrivateModelServer {
  /** The OpenAI-compatible base URL (…/v1). */
  url: string;
  /** What the server has logged so far (scripts/model-server writes it to .run/logs/model-server-<port>.log). */
  log(): string;
  stop(): Promise<void>;
}

export async function startPrivateModelServer(): Promise<PrivateModelServer> {
  const port = await freePort();
  const env = { ...process.env, MODEL_SERVER_PORT: String(port) };
  const script = path.join(root, 'scripts/model-server');
  await run(script, ['start'], { env, cwd: root, timeout: 120_000 });
  const logFile = path.join(root, '.run/logs', `model-server-${port}.log`);
  return {
    url: `http://127.0.0.1:${port}/v1`,
    log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
    stop: async () => {
      await run(script, ['stop'], { env, cwd: root, timeout: 30_000 });
    },
  };
}
