import { narrationSentences, plainNarration } from '../../../domain/media/narration';
import {
  chooseSpeechProvider,
  espeakVoiceArgs,
  LOCAL_VOICES,
  speakerVoice,
  voiceProblem,
} from '../../../domain/media/voices';
import { frameSize } from '../../../domain/media/formats';

describe('narration text', () => {
  it('markdown, citations and bullets become plain sentences', () => {
    expect(plainNarration('## Title\n\n- **Bold** point [2]\n- a [link](https://x.org)')).toBe(
      'Title Bold point a link',
    );
    expect(narrationSentences('Dr. Smith said hi. It costs 3.5 dollars! Really?')).toEqual([
      'Dr. Smith said hi.',
      'It costs 3.5 dollars!',
      'Really?',
    ]);
  });

  it('very long sentences are cut at a clause boundary', () => {
    const long = `${'word '.repeat(40)}, ${'other '.repeat(40)}end.`;
    const parts = narrationSentences(long, 300);
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(300);
  });
});

describe('voices', () => {
  it('each of the first speakers gets a different local voice, and their espeak-ng arguments differ', () => {
    const ids = [0, 1, 2, 3, 4, 5].map(speakerVoice);
    expect(new Set(ids).size).toBe(6);
    const args = ids.map((voice) => JSON.stringify(espeakVoiceArgs({ voice })));
    expect(new Set(args).size).toBe(6);
    expect(speakerVoice(LOCAL_VOICES.length)).toBe(speakerVoice(0));
  });

  it('rate and pitch map to espeak-ng words per minute and pitch; rate is clamped', () => {
    expect(espeakVoiceArgs({ voice: 'en-us-f1', rate: 1.5, pitch: 70 })).toEqual({
      voice: 'en-us+f3',
      wpm: 240,
      pitch: 70,
    });
    expect(espeakVoiceArgs({ rate: 9 }).wpm).toBe(320);
    expect(() => espeakVoiceArgs({ voice: 'nope' })).toThrow(/unknown local voice/);
  });

  it('provider choice and voice checks', () => {
    expect(chooseSpeechProvider('auto', false)).toBe('local');
    expect(chooseSpeechProvider('auto', true)).toBe('tts_vendor');
    expect(chooseSpeechProvider('local', true)).toBe('local');
    expect(voiceProblem('local', 'alloy')).toMatch(/not a local voice/);
    expect(voiceProblem('tts_vendor', 'alloy')).toBeUndefined();
    expect(voiceProblem('local', undefined)).toBeUndefined();
  });

  it('frame sizes of the three resolutions in both orientations are even', () => {
    expect(frameSize('1080p', '9:16')).toEqual({ width: 1080, height: 1920 });
    expect(frameSize('720p', '16:9')).toEqual({ width: 1280, height: 720 });
    expect(frameSize('480p', '16:9')).toEqual({ width: 854, height: 480 });
  });
});
