/** The offline speech provider: espeak-ng (Debian package), one WAV per call, voice/rate/pitch per speaker. */
import { espeakVoiceArgs } from '../../domain/media/voices';
import { runTool } from '../media/process';
import type { SpeechRequest, SpeechResult, SpeechSynthesizer } from './port';

export const ESPEAK_MODEL = 'espeak-ng';

export function createEspeakSynthesizer(bin = 'espeak-ng'): SpeechSynthesizer {
  return {
    provider: 'local',
    model: ESPEAK_MODEL,
    async synthesize(req: SpeechRequest): Promise<SpeechResult> {
      const v = espeakVoiceArgs(req.voice);
      // Text on stdin: nothing in it can be read as an option.
      await runTool(bin, ['-v', v.voice, '-s', String(v.wpm), '-p', String(v.pitch), '-w', req.out, '--stdin'], {
        input: req.text,
        signal: req.signal,
      });
      return {
        file: req.out,
        provider: 'local',
        voice: req.voice.voice ?? v.voice,
        model: ESPEAK_MODEL,
        pitch_applied: true,
      };
    },
  };
}
