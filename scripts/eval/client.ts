/**
 * The content evaluation's HTTP client (scripts/eval/routes.ts): one call to the platform, its answer checked
 * against the OpenAPI document and a 202 task polled to its end.
 */
import { undocumentedAnswer } from './conformance';
import { rawRequest } from '../../test/support/http';

export interface Client {
  base: string;
  key: string;
  session: string;
}

export type Json = Record<string, unknown>;

/** One HTTP call; a 202 task answer is polled to its end (the answer-or-task rule and the writers' variant). */
export async function call(c: Client, method: string, path: string, body?: unknown, auth: 'key' | 'session' = 'key') {
  const headers: Record<string, string> = {
    authorization: `Bearer ${auth === 'key' ? c.key : c.session}`,
    'content-type': 'application/json',
  };
  // node:http, not fetch: fetch gives up after 300 s without response headers, while a synchronous route may run
  // up to its workflow's 10-minute bound on a slow self-hosted model (docs/api.md): the client waits as long.
  const first = await rawRequest(
    `${c.base}${path}`,
    method,
    headers,
    body === undefined ? undefined : JSON.stringify(body),
  );
  const json = ((): Json => {
    try {
      return JSON.parse(first.body) as Json;
    } catch {
      return {};
    }
  })();
  // Every answer must be the one the document promises (a 2xx of the wrong shape fails the piece).
  const conforms = async (m: string, p: string, status: number, b: unknown) => {
    const why = status < 300 ? await undocumentedAnswer(c.base, m, p, status, b) : undefined;
    if (why) throw new Error(`answer not as documented: ${why} in ${JSON.stringify(b).slice(0, 300)}`);
  };
  await conforms(method, path, first.status, json);
  const statusUrl = (json.status_url ?? (json.data as Json | undefined)?.status_url) as string | undefined;
  if (first.status === 202 && statusUrl) {
    const end = Date.now() + 15 * 60_000;
    for (;;) {
      await new Promise((res) => setTimeout(res, 1000));
      const r = await fetch(`${c.base}${statusUrl}`, { headers });
      const t = (await r.json()) as Json;
      await conforms('GET', statusUrl, r.status, t);
      const task = (t.data ?? t) as Json;
      // The answer a 200 would have been: the result as `data` (enveloped families) and at the top (the writers'
      // bare bodies).
      if (task.status === 'completed') {
        const result = task.result as Json;
        return { status: 200, json: { ...t, ...result, data: result, result } };
      }
      if (task.status === 'failed' || task.status === 'cancelled') return { status: 500, json: t };
      if (Date.now() > end) throw new Error(`${path}: task did not finish in 15 minutes`);
    }
  }
  return { status: first.status, json };
}

export const must = (r: { status: number; json: Json }, what: string) => {
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.json).slice(0, 400)}`);
  return r.json;
};
