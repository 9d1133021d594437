/**
 * Voices of the text-to-speech port. The offline provider (`local`,
 * espeak-ng) has a small catalogue of named voices, each a language plus an
 * espeak-ng variant and a default pitch, chosen so that neighbouring speakers
 * sound clearly different (male/female and US/UK alternate). Vendor voices
 * (`tts_vendor`, an OpenAI-compatible /audio/speech endpoint) are the vendor's
 * own names and are passed through; the vendor refuses unknown ones.
 */
export const SPEECH_PROVIDERS = ['auto', 'local', 'tts_vendor'] as const;
export type SpeechProviderChoice = (typeof SPEECH_PROVIDERS)[number];
export type SpeechProvider = Exclude<SpeechProviderChoice, 'auto'>;

export interface LocalVoice {
  id: string;
  /** espeak-ng voice: language, then `+variant`. */
  espeak: string;
  /** Default pitch 0–99 (espeak-ng's scale; 50 is its neutral). */
  pitch: number;
  gender: 'male' | 'female';
  accent: 'US' | 'UK';
}

export const LOCAL_VOICES: readonly LocalVoice[] = Object.freeze([
  { id: 'en-us-m1', espeak: 'en-us+m3', pitch: 42, gender: 'male', accent: 'US' },
  { id: 'en-us-f1', espeak: 'en-us+f3', pitch: 62, gender: 'female', accent: 'US' },
  { id: 'en-gb-m1', espeak: 'en-gb+m1', pitch: 38, gender: 'male', accent: 'UK' },
  { id: 'en-gb-f1', espeak: 'en-gb+f2', pitch: 58, gender: 'female', accent: 'UK' },
  { id: 'en-us-m2', espeak: 'en-us+m7', pitch: 50, gender: 'male', accent: 'US' },
  { id: 'en-us-f2', espeak: 'en-us+f5', pitch: 68, gender: 'female', accent: 'US' },
] as LocalVoice[]);

export const LOCAL_VOICE_IDS = LOCAL_VOICES.map((v) => v.id);
export const DEFAULT_LOCAL_VOICE = 'en-us-m1';
/** OpenAI's default voice; any name the configured vendor knows may be given instead. */
export const DEFAULT_VENDOR_VOICE = 'alloy';

export const localVoice = (id: string): LocalVoice | undefined => LOCAL_VOICES.find((v) => v.id === id);

export type VoiceGender = LocalVoice['gender'];
export const VOICE_GENDERS: readonly VoiceGender[] = ['female', 'male'];

/** A speaker as the voice choice sees it: its declared voice or gender, else its name. */
export interface VoicedSpeaker {
  name: string;
  gender?: VoiceGender;
  voice?: string;
}

/** Why a speaker has the voice it has: `voice` (declared), `gender` (declared), `name` (lexicon) or `order`. */
export type VoiceBasis = 'voice' | 'gender' | 'name' | 'order';

/**
 * One local voice per speaker, distinct while the catalogue lasts (docs/podcast.md): a declared voice is kept; else
 * the first unused voice of the speaker's declared gender, else of the gender its given name is usually given to
 * (domain/media/names.ts), else of the gender fewer speakers have so far (the first speaker: male), so that
 * neighbouring speakers sound different. Every speaker keeps its voice through the episode and its video.
 */
export function speakerVoices(
  speakers: readonly VoicedSpeaker[],
  nameGender: (name: string) => VoiceGender | undefined,
): { voice: string; gender?: VoiceGender; basis: VoiceBasis }[] {
  const used = new Set(speakers.flatMap((s) => (s.voice ? [s.voice] : [])));
  const count: Record<VoiceGender, number> = { female: 0, male: 0 };
  return speakers.map((s) => {
    if (s.voice) {
      const gender = localVoice(s.voice)?.gender;
      if (gender) count[gender]++;
      return { voice: s.voice, ...(gender ? { gender } : {}), basis: 'voice' as const };
    }
    const named = s.gender ? undefined : nameGender(s.name);
    const gender: VoiceGender = s.gender ?? named ?? (count.female < count.male ? 'female' : 'male');
    const basis: VoiceBasis = s.gender ? 'gender' : named ? 'name' : 'order';
    const same = LOCAL_VOICES.filter((v) => v.gender === gender);
    const pick = same.find((v) => !used.has(v.id)) ?? same[count[gender] % same.length];
    used.add(pick.id);
    count[gender]++;
    return { voice: pick.id, gender, basis };
  });
}

/** Speaking rate multiplier bounds (1 = the provider's normal speed). */
export const MIN_RATE = 0.5;
export const MAX_RATE = 2;
/** Words per minute of espeak-ng at rate 1 (its own default is 175; 160 is easier to follow in narration). */
export const LOCAL_BASE_WPM = 160;

/** How one text is spoken: voice name, rate multiplier, pitch (0–99, honoured by `local` only). */
export interface VoiceSettings {
  voice?: string;
  rate?: number;
  pitch?: number;
}

/** The espeak-ng arguments of a local voice setting (pure, so tests can check distinct speakers differ). */
export function espeakVoiceArgs(s: VoiceSettings): { voice: string; wpm: number; pitch: number } {
  const v = localVoice(s.voice ?? DEFAULT_LOCAL_VOICE);
  if (!v) throw new RangeError(`unknown local voice "${s.voice}"; one of ${LOCAL_VOICE_IDS.join(', ')}`);
  const rate = Math.min(MAX_RATE, Math.max(MIN_RATE, s.rate ?? 1));
  return { voice: v.espeak, wpm: Math.round(LOCAL_BASE_WPM * rate), pitch: Math.round(s.pitch ?? v.pitch) };
}

/** Resolves `auto`: the vendor when configured, else local; an explicit vendor that is not configured is refused by the caller. */
export function chooseSpeechProvider(
  choice: SpeechProviderChoice | undefined,
  vendorConfigured: boolean,
): SpeechProvider {
  if (choice === 'local') return 'local';
  if (choice === 'tts_vendor') return 'tts_vendor';
  return vendorConfigured ? 'tts_vendor' : 'local';
}

/** A voice check for a resolved provider: undefined when fine, else the reason. */
export function voiceProblem(provider: SpeechProvider, voice: string | undefined): string | undefined {
  if (voice === undefined) return undefined;
  if (provider === 'local' && !localVoice(voice))
    return `voice "${voice}" is not a local voice; use one of ${LOCAL_VOICE_IDS.join(', ')} (or configure TTS_VENDOR_BASE_URL for vendor voices)`;
  return undefined;
}
