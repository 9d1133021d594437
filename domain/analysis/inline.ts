/**
 * Inline Markdown/HTML stripping with an offset map.
 *
 * Every analysis reports character offsets into the *original* input, but
 * sentence splitting and word counting must run on plain text (a link's URL
 * or a `**` marker is not a word). So we build the plain text one character
 * at a time and remember, for each plain character, where it came from:
 * `map[i]` is the original offset of `text[i]`.
 */

export interface MappedText {
  text: string;
  map: number[];
}

const IMAGE = /!\[[^\]]*\]\([^)]*\)/y;
const LINK = /\[([^\]]*)\]\(([^)]*)\)/y;
const REF_LINK = /\[([^\]]+)\]\[[^\]]*\]/y;
const TAG = /<\/?[A-Za-z][^>]*>|<!--[\s\S]*?-->/y;
const AUTOLINK = /<((?:https?|mailto):[^>\s]+)>/y;
const ENTITY = /&(amp|lt|gt|quot|apos|nbsp|#39|#x27);/y;
const ENTITY_CHAR: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  '#39': "'",
  '#x27': "'",
};

const isAlnum = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}]/u.test(c);

function matchAt(re: RegExp, s: string, i: number): RegExpExecArray | null {
  re.lastIndex = i;
  return re.exec(s);
}

/**
 * Strip inline markup from `raw` (a slice of the original string that starts
 * at original offset `base`) and append the result to `out`.
 */
export function appendStripped(raw: string, base: number, out: MappedText): void {
  let i = 0;
  while (i < raw.length) {
    const c = raw[i];
    let m: RegExpExecArray | null;
    if (c === '\\' && i + 1 < raw.length && /[!-/:-@[-`{-~]/.test(raw[i + 1])) {
      push(out, raw[i + 1], base + i + 1);
      i += 2;
    } else if (c === '!' && (m = matchAt(IMAGE, raw, i))) {
      i += m[0].length; // images are not prose; their alt text is audited separately
    } else if (c === '[' && ((m = matchAt(LINK, raw, i)) || (m = matchAt(REF_LINK, raw, i)))) {
      // keep the anchor text (it is read), drop the target
      appendStripped(m[1], base + i + 1, out);
      i += m[0].length;
    } else if (c === '<' && (m = matchAt(AUTOLINK, raw, i))) {
      for (let k = 0; k < m[1].length; k++) push(out, m[1][k], base + i + 1 + k);
      i += m[0].length;
    } else if (c === '<' && (m = matchAt(TAG, raw, i))) {
      i += m[0].length;
    } else if (c === '&' && (m = matchAt(ENTITY, raw, i))) {
      push(out, ENTITY_CHAR[m[1]], base + i);
      i += m[0].length;
    } else if (c === '*' || c === '~' || c === '`') {
      i++; // emphasis / strike / code markers; code text itself is kept
    } else if (c === '_' && (!isAlnum(raw[i - 1]) || !isAlnum(raw[i + 1]))) {
      i++; // emphasis underscore; snake_case inside a word is kept
    } else {
      push(out, c, base + i);
      i++;
    }
  }
}

function push(out: MappedText, ch: string, offset: number): void {
  out.text += ch;
  out.map.push(offset);
}

export function stripInline(raw: string, base = 0): MappedText {
  const out: MappedText = { text: '', map: [] };
  appendStripped(raw, base, out);
  return out;
}
