import { narrationSentences, plainNarration } from '../../../domain/media/narration';
import {
  chooseSpeechProvider,
  espeakVoiceArgs,
  localVoice,
  speakerVoices,
  voiceProblem,
} from '../../../domain/media/voices';
import { genderOfName } from '../../../domain/media/names';
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
  const voices = (speakers: Parameters<typeof speakerVoices>[0]) => speakerVoices(speakers, genderOfName);
  const named = (...names: string[]) => names.map((name) => ({ name }));

  it('six speakers get six different local voices, and their espeak-ng arguments differ', () => {
    const ids = voices(named('Host', 'Guest 1', 'Guest 2', 'Guest 3', 'Guest 4', 'Guest 5')).map((v) => v.voice);
    expect(new Set(ids).size).toBe(6);
    const args = ids.map((voice) => JSON.stringify(espeakVoiceArgs({ voice })));
    expect(new Set(args).size).toBe(6);
  });

  it('a voice of the gender the name is usually given to, whatever the order (Maya and Tom)', () => {
    const [maya, tom] = voices(named('Maya', 'Tom'));
    expect([maya.gender, maya.basis, localVoice(maya.voice)?.gender]).toEqual(['female', 'name', 'female']);
    expect([tom.gender, tom.basis, localVoice(tom.voice)?.gender]).toEqual(['male', 'name', 'male']);
    // Two of one gender get two different voices of it.
    const [a, b] = voices(named('Alice', 'Maria (co-host)'));
    expect([a.gender, b.gender, a.voice !== b.voice]).toEqual(['female', 'female', true]);
  });

  it('a declared voice or gender wins; unknown names alternate by order, starting male', () => {
    expect(voices([{ name: 'Maya', gender: 'male' }])[0]).toMatchObject({ gender: 'male', basis: 'gender' });
    expect(voices([{ name: 'Tom', voice: 'en-gb-f1' }])[0]).toEqual({
      voice: 'en-gb-f1',
      gender: 'female',
      basis: 'voice',
    });
    expect(voices(named('Host', 'Guest', 'Sam')).map((v) => [v.gender, v.basis])).toEqual([
      ['male', 'order'],
      ['female', 'order'],
      ['male', 'order'],
    ]);
    // A declared voice is not given to anyone else.
    const [first, second] = voices([{ name: 'Ann', voice: 'en-us-f1' }, { name: 'Beth' }]);
    expect([first.voice, second.voice === 'en-us-f1', second.gender]).toEqual(['en-us-f1', false, 'female']);
  });

  it('the name lexicon reads the given name only, without accents or case', () => {
    expect(['Maya', 'tom', 'Zoë Adams', 'JOSÉ', 'Alex', 'Dr'].map(genderOfName)).toEqual([
      'female',
      'male',
      'female',
      'male',
      undefined,
      undefined,
    ]);
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
