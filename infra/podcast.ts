/** What the podcast maker's API needs from the outside (built once in workers/adapters.ts; tests build their own). */
import type { SpeechCatalogue } from './tts/languages';

export interface PodcastApiAdapters {
  /** espeak-ng's languages and variants on this machine (GET /dub/languages, /dub/voices). */
  speech: () => Promise<SpeechCatalogue>;
  /** Offline translation pairs (`en-es`) Apertium has installed. */
  translationPairs: () => Promise<string[]>;
  /** A text vendor translates any pair (VENDOR_A_* / VENDOR_B_*). */
  textVendorConfigured: boolean;
  /** Largest audio upload (bytes, decoded). */
  maxUploadBytes: number;
}
