/**
 * Offline machine translation with Apertium (rule-based, Debian packages
 * `apertium` + a language pair such as `apertium-eng-spa`; scripts/media-tools
 * installs English–Spanish). It is what dubbing uses when no text vendor is
 * configured: real translation, not a language model, and said so in the
 * result (`method: "apertium eng-spa"`). Pairs are asked of `apertium -l`.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runTool } from '../media/process';

/** ISO 639-1 → the ISO 639-3 codes Apertium names its modes with. */
const ISO3: Record<string, string> = {
  en: 'eng',
  es: 'spa',
  ca: 'cat',
  gl: 'glg',
  eo: 'epo',
  eu: 'eus',
  fr: 'fra',
  pt: 'por',
  it: 'ita',
  de: 'deu',
  oc: 'oci',
  ro: 'ron',
  nl: 'nld',
  sv: 'swe',
  da: 'dan',
  nb: 'nob',
};

export const apertiumCode = (lang: string) => ISO3[lang.toLowerCase().split('-')[0]];

export interface OfflineTranslator {
  readonly name: 'apertium';
  /** Pairs as `from-to` language codes of two letters (`en-es`). */
  pairs(): Promise<string[]>;
  /** The Apertium mode of a pair, when installed. */
  mode(from: string, to: string): Promise<string | undefined>;
  translate(text: string, from: string, to: string, signal?: AbortSignal): Promise<string>;
}

export function createApertiumTranslator(bin = 'apertium'): OfflineTranslator {
  let modes: Promise<string[]> | undefined;
  const list = () => {
    modes ??= runTool(bin, ['-l'])
      .then((r) =>
        r.stdout
          .split(/\s+/)
          .map((m) => m.trim())
          .filter((m) => /^[a-z]{3}-[a-z]{3}$/.test(m)),
      )
      // Not installed: no offline pairs (the API then names what to configure).
      .catch(() => []);
    return modes;
  };
  const two = Object.fromEntries(Object.entries(ISO3).map(([k, v]) => [v, k]));
  const t: OfflineTranslator = {
    name: 'apertium',
    async pairs() {
      return (await list())
        .map((m) => m.split('-'))
        .filter(([a, b]) => two[a] && two[b])
        .map(([a, b]) => `${two[a]}-${two[b]}`);
    },
    async mode(from, to) {
      const a = apertiumCode(from);
      const b = apertiumCode(to);
      if (!a || !b) return undefined;
      return (await list()).includes(`${a}-${b}`) ? `${a}-${b}` : undefined;
    },
    async translate(text, from, to, signal) {
      const mode = await t.mode(from, to);
      if (!mode) throw new Error(`apertium has no ${from}-${to} pair installed`);
      // Files, not stdin: the apertium script opens /dev/stdin, which fails on the socket Node gives a child.
      const dir = await mkdtemp(path.join(tmpdir(), 'apertium-'));
      try {
        const input = path.join(dir, 'in.txt');
        const output = path.join(dir, 'out.txt');
        await writeFile(input, `${text}\n`);
        // -u: unknown words are kept as they are, without Apertium's `*` marks.
        await runTool(bin, ['-u', mode, input, output], { signal });
        return (await readFile(output, 'utf8'))
          .replace(/\s+/g, ' ')
          .replace(/ ([,.;:!?])/g, '$1')
          .trim();
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
  return t;
}
