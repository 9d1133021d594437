import { medianPitchHz } from '../../../domain/media/pitch';
import {
  matchLanguage,
  parseDubVoice,
  parseEspeakLanguages,
  parseEspeakVariants,
} from '../../../domain/media/speech-languages';

const VOICES = `Pty Language       Age/Gender VoiceName          File                 Other Languages
 5  af              --/M      Afrikaans          gmw/af
 5  en-us           --/M      English_(America)  gmw/en-US            (en 2)
 5  es              --/M      Spanish_(Spain)    roa/es
 5  pt-br           --/M      Portuguese_(Brazil) roa/pt-BR           (pt 5)
`;
const VARIANTS = `Pty Language       Age/Gender VoiceName          File                 Other Languages
 5  variant         --/F      f3                 !v/f3
 5  variant         --/M      Alex               !v/Alex
`;

describe('speech catalogue and pitch (pure)', () => {
  it("parses espeak-ng's listings", () => {
    const l = parseEspeakLanguages(VOICES);
    expect(l.map((x) => x.code)).toEqual(['af', 'en-us', 'es', 'pt-br']);
    expect(l[1]).toEqual({ code: 'en-us', name: 'English (America)', gender: 'male' });
    expect(parseEspeakVariants(VARIANTS)).toEqual([
      { id: 'Alex', name: 'Alex', gender: 'male' },
      { id: 'f3', name: 'f3', gender: 'female' },
    ]);
    expect(matchLanguage('es-ES', l)?.code).toBe('es');
    expect(matchLanguage('PT-BR', l)?.code).toBe('pt-br');
    expect(matchLanguage('xx', l)).toBeUndefined();
    expect(parseDubVoice('es+f3')).toEqual({ language: 'es', variant: 'f3' });
    expect(parseDubVoice('../x')).toBeUndefined();
  });

  it('measures the pitch of periodic signals and ignores silence', () => {
    const rate = 16000;
    const tone = (hz: number) =>
      Array.from({ length: rate }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * hz * i) / rate)));
    expect(medianPitchHz(tone(120), rate)).toBeCloseTo(120, -1);
    expect(medianPitchHz(tone(220), rate)).toBeCloseTo(220, -1);
    expect(medianPitchHz(new Array(rate).fill(0), rate)).toBeUndefined();
  });
});
