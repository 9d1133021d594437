/**
 * The offline speech provider's catalogue, asked of espeak-ng itself (so GET
 * /api/podcast/dub/languages and /dub/voices list what this machine really
 * has), and a synthesiser that speaks any of its languages (dubbing).
 */
import { parseDubVoice, parseEspeakLanguages, parseEspeakVariants } from '../../domain/media/speech-languages';
import type { SpeechLanguage, SpeechVariant } from '../../domain/media/speech-languages';
import { LOCAL_BASE_WPM, MAX_RATE, MIN_RATE } from '../../domain/media/voices';
import { MediaInputError, runTool } from '../media/process';
import { ESPEAK_MODEL } from './espeak';
import type { SpeechRequest, SpeechResult, SpeechSynthesizer } from './port';

export interface SpeechCatalogue {
  languages: SpeechLanguage[];
  variants: SpeechVariant[];
}

/** Lists espeak-ng's languages and voice variants (once per process: they change only with the package). */
export function espeakCatalogue(bin = 'espeak-ng'): () => Promise<SpeechCatalogue> {
  let cached: Promise<SpeechCatalogue> | undefined;
  return () => {
    cached ??= (async () => {
      const [langs, variants] = await Promise.all([runTool(bin, ['--voices']), runTool(bin, ['--voices=variant'])]);
      return { languages: parseEspeakLanguages(langs.stdout), variants: parseEspeakVariants(variants.stdout) };
    })().catch((e) => {
      cached = undefined;
      throw e;
    });
    return cached;
  };
}

/** espeak-ng speaking `voice.voice` = `<language>[+<variant>]` (e.g. `es+f3`), rate and pitch as the local voices. */
export function createEspeakLanguageSynthesizer(bin = 'espeak-ng'): SpeechSynthesizer {
  return {
    provider: 'local',
    model: ESPEAK_MODEL,
    async synthesize(req: SpeechRequest): Promise<SpeechResult> {
      const v = parseDubVoice(req.voice.voice ?? '');
      if (!v)
        throw new MediaInputError(`"${req.voice.voice}" is not a dubbing voice (<language>[+<variant>], e.g. es+f3)`);
      const wpm = Math.round(LOCAL_BASE_WPM * Math.min(MAX_RATE, Math.max(MIN_RATE, req.voice.rate ?? 1)));
      const name = v.variant ? `${v.language}+${v.variant}` : v.language;
      await runTool(
        bin,
        [
          '-v',
          name,
          '-s',
          String(wpm),
          ...(req.voice.pitch !== undefined ? ['-p', String(req.voice.pitch)] : []),
          '-w',
          req.out,
          '--stdin',
        ],
        { input: req.text, signal: req.signal },
      );
      return { file: req.out, provider: 'local', voice: name, model: ESPEAK_MODEL, pitch_applied: true };
    },
  };
}
