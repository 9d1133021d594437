/**
 * Vendor speech through the OpenAI-compatible `POST {base}/audio/speech`
 * protocol (OpenAI, and servers that copy it): JSON `{model, input, voice,
 * response_format: "wav", speed}` in, audio bytes out. Same retry discipline
 * as the text vendors (infra/ai/http.ts): 408/429/5xx, network errors and
 * time-outs are retried with backoff and Retry-After; other 4xx are not.
 * The protocol has no pitch: a requested pitch is reported as not applied.
 */
import { writeFile } from 'node:fs/promises';
import { DEFAULT_VENDOR_VOICE, MAX_RATE, MIN_RATE } from '../../domain/media/voices';
import {
  VendorRateLimitedError,
  VendorRequestRejectedError,
  VendorTimeoutError,
  VendorUnavailableError,
  VendorBadResponseError,
} from '../ai/errors';
import { backoffMs, retryAfterMs } from '../ai/http';
import type { SpeechRequest, SpeechResult, SpeechSynthesizer } from './port';

export interface SpeechVendorSettings {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
  maxRetries: number;
  /** Test hooks. */
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

const VENDOR = 'tts_vendor';
const RETRYABLE = new Set([408, 429, 500, 502, 503, 504]);

export function createOpenAiSpeechSynthesizer(s: SpeechVendorSettings): SpeechSynthesizer {
  const url = `${s.baseUrl.replace(/\/+$/, '')}/audio/speech`;
  const sleep = s.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  return {
    provider: 'tts_vendor',
    model: s.model,
    async synthesize(req: SpeechRequest): Promise<SpeechResult> {
      const voice = req.voice.voice ?? DEFAULT_VENDOR_VOICE;
      const body = JSON.stringify({
        model: s.model,
        input: req.text,
        voice,
        response_format: 'wav',
        speed: Math.min(MAX_RATE, Math.max(MIN_RATE, req.voice.rate ?? 1)),
      });
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        accept: 'audio/wav, audio/*',
        ...(s.apiKey ? { authorization: `Bearer ${s.apiKey}` } : {}),
        ...(req.idempotencyKey ? { 'idempotency-key': req.idempotencyKey } : {}),
      };
      for (let i = 0; ; i++) {
        const last = i >= s.maxRetries;
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(new Error('time-out')), s.timeoutMs);
        const onAbort = () => controller.abort(req.signal!.reason);
        req.signal?.addEventListener('abort', onAbort, { once: true });
        let res: Response | undefined;
        let bytes: Buffer | undefined;
        let failure: 'timeout' | string | undefined;
        try {
          res = await (s.fetch ?? fetch)(url, { method: 'POST', headers, body, signal: controller.signal });
          bytes = Buffer.from(await res.arrayBuffer());
        } catch (e) {
          if (req.signal?.aborted) throw req.signal.reason;
          failure = controller.signal.aborted ? 'timeout' : (e as Error).message;
        } finally {
          clearTimeout(timer);
          req.signal?.removeEventListener('abort', onAbort);
        }
        if (res && bytes && res.ok) {
          const type = res.headers.get('content-type') ?? '';
          if (!bytes.length || /json|text\/html/.test(type))
            throw new VendorBadResponseError(VENDOR, `expected audio, got ${type || 'an empty body'}`);
          await writeFile(req.out, bytes);
          return {
            file: req.out,
            provider: 'tts_vendor',
            voice,
            model: s.model,
            pitch_applied: req.voice.pitch === undefined,
          };
        }
        const text = bytes ? bytes.toString('utf8', 0, Math.min(bytes.length, 300)) : '';
        if (res && !RETRYABLE.has(res.status)) throw new VendorRequestRejectedError(VENDOR, res.status, text);
        if (last) {
          if (failure === 'timeout') throw new VendorTimeoutError(VENDOR, s.timeoutMs, i + 1);
          if (res?.status === 429) throw new VendorRateLimitedError(VENDOR, retryAfterMs(res.headers), i + 1);
          throw new VendorUnavailableError(VENDOR, res?.status, failure ?? text, i + 1);
        }
        const after = res ? retryAfterMs(res.headers) : undefined;
        await sleep(Math.max(after ?? 0, backoffMs(i, 500, 20_000, Math.random)));
      }
    },
  };
}
