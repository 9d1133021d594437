/**
 * Writing a JSON answer. Every JSON body the API sends (success, error, replay, conditional) goes through
 * `sendJson`, which writes status, type and length and the body straight to Node's response: Express's
 * `res.json`/`res.send` re-derive the content type, check freshness and convert the body on every call, a
 * measurable share of a cheap read's time (docs/benchmarks.md, "API at the speed of Express").
 */
import type { ServerResponse } from 'node:http';

const JSON_TYPE = 'application/json; charset=utf-8';

const BEFORE = Symbol('before the JSON answer is written');
type BeforeAnswer = (status: number, body: unknown) => Promise<void>;

/**
 * Runs `hook` with the JSON answer's status and body before it is written (the idempotency stage stores the answer
 * first, so a retry that follows it finds it). Once: the hook is dropped when it runs.
 */
export function beforeJsonAnswer(res: ServerResponse, hook: BeforeAnswer): void {
  (res as ServerResponse & { [BEFORE]?: BeforeAnswer })[BEFORE] = hook;
}

/** Sends `body` (a value to serialise, or JSON text / bytes already serialised) with `status`. */
export function sendJson(res: ServerResponse, status: number, body: unknown, serialised = false): void {
  const r = res as ServerResponse & { [BEFORE]?: BeforeAnswer };
  const hook = r[BEFORE];
  if (hook) {
    r[BEFORE] = undefined;
    const value = serialised ? JSON.parse(String(body)) : body;
    void hook(status, value).finally(() => sendJson(res, status, body, serialised));
    return;
  }
  const bytes = serialised
    ? Buffer.isBuffer(body)
      ? body
      : Buffer.from(body as string)
    : Buffer.from(JSON.stringify(body) ?? 'null');
  res.statusCode = status;
  res.setHeader('Content-Type', JSON_TYPE);
  // Set even for HEAD, whose body Node leaves out: the length is the GET answer's.
  res.setHeader('Content-Length', bytes.length);
  res.end(bytes);
}
