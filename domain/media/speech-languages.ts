/**
 * What the offline speech provider (espeak-ng) really offers, parsed from its
 * own listings (`espeak-ng --voices` and `--voices=variant`), and how a dubbing
 * voice is named: `<language>` or `<language>+<variant>` (e.g. `es`, `es+f3`).
 * Pure, so the parsing is unit-tested against captured output.
 */
export interface SpeechLanguage {
  /** espeak-ng's language code (BCP 47-like: `es`, `pt-br`, `en-gb-scotland`). */
  code: string;
  /** espeak-ng's voice name for it (`Spanish_(Spain)` → `Spanish (Spain)`). */
  name: string;
  gender: 'male' | 'female' | 'unspecified';
}

export interface SpeechVariant {
  id: string;
  name: string;
  gender: 'male' | 'female' | 'unspecified';
}

const LINE = /^\s*\d+\s+(\S+)\s+\S*?\/?([MF-])?\s+(\S+)\s+(\S+)/;

const genderOf = (g?: string): SpeechLanguage['gender'] => (g === 'M' ? 'male' : g === 'F' ? 'female' : 'unspecified');

/** Rows of `espeak-ng --voices` (the header line is skipped). */
export function parseEspeakLanguages(listing: string): SpeechLanguage[] {
  const out = new Map<string, SpeechLanguage>();
  for (const line of listing.split('\n').slice(1)) {
    const m = LINE.exec(line);
    if (!m || m[1] === 'variant') continue;
    if (!out.has(m[1])) out.set(m[1], { code: m[1], name: m[3].replace(/_/g, ' '), gender: genderOf(m[2]) });
  }
  return [...out.values()].sort((a, b) => a.code.localeCompare(b.code));
}

/** Rows of `espeak-ng --voices=variant`: the id is the file's base name (`!v/f3` → `f3`). */
export function parseEspeakVariants(listing: string): SpeechVariant[] {
  const out = new Map<string, SpeechVariant>();
  for (const line of listing.split('\n').slice(1)) {
    const m = LINE.exec(line);
    if (!m || m[1] !== 'variant') continue;
    const id = m[4].split('/').pop() ?? '';
    if (/^[A-Za-z0-9_-]+$/.test(id) && !out.has(id))
      out.set(id, { id, name: m[3].replace(/_/g, ' '), gender: genderOf(m[2]) });
  }
  return [...out.values()].sort((a, b) => a.id.localeCompare(b.id));
}

/** `es+f3` → {language: 'es', variant: 'f3'}; undefined when the name is malformed. */
export function parseDubVoice(voice: string): { language: string; variant?: string } | undefined {
  const m = /^([a-z]{2,3}(?:-[A-Za-z0-9]{1,8})*)(?:\+([A-Za-z0-9_-]{1,30}))?$/.exec(voice);
  return m ? { language: m[1], ...(m[2] ? { variant: m[2] } : {}) } : undefined;
}

/** The espeak-ng language for a requested language tag: exact, else its primary subtag (`es-ES` → `es`). */
export function matchLanguage(tag: string, languages: readonly SpeechLanguage[]): SpeechLanguage | undefined {
  const t = tag.toLowerCase();
  return (
    languages.find((l) => l.code.toLowerCase() === t) ?? languages.find((l) => l.code.toLowerCase() === t.split('-')[0])
  );
}
