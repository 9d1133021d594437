/**
 * The text-to-speech port: one sentence of text in, one audio file out.
 * `local` is espeak-ng (offline, free, robotic but clear); `tts_vendor` is
 * any OpenAI-compatible `/audio/speech` endpoint, configured by key. The
 * engine measures every file it gets back with ffprobe: timings never come
 * from a provider's claims.
 */
import type { SpeechProvider, VoiceSettings } from '../../domain/media/voices';

export interface SpeechRequest {
  text: string;
  voice: VoiceSettings;
  /** Where to write the audio (WAV). */
  out: string;
  signal?: AbortSignal;
  /** Sent to vendors that deduplicate retries (Idempotency-Key). */
  idempotencyKey?: string;
}

export interface SpeechResult {
  file: string;
  provider: SpeechProvider;
  /** The voice used (the provider's name for it). */
  voice: string;
  model: string;
  /** False when the provider has no pitch control (vendors): the requested pitch was not applied. */
  pitch_applied: boolean;
}

export interface SpeechSynthesizer {
  readonly provider: SpeechProvider;
  readonly model: string;
  synthesize(req: SpeechRequest): Promise<SpeechResult>;
}

/** The synthesisers a worker has: local always, the vendor when configured. */
export interface SpeechEngines {
  local: SpeechSynthesizer;
  vendor?: SpeechSynthesizer;
}
