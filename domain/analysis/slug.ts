/**
 * URL slugs.
 *
 * Rules: Unicode NFKD then combining marks removed (é -> e), a few letters
 * NFKD cannot decompose mapped by hand (ß -> ss, æ -> ae, ø -> o, ...),
 * lower-case, "&" -> "and", every run of other characters becomes one
 * hyphen, stop words dropped (unless that would leave nothing), at most 60
 * characters cut at a word boundary, no leading/trailing hyphen.
 */
import { STOPWORDS } from './stopwords';

export const MAX_SLUG_LENGTH = 60;

const SPECIAL: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  Æ: 'ae',
  œ: 'oe',
  Œ: 'oe',
  ø: 'o',
  Ø: 'o',
  đ: 'd',
  Đ: 'd',
  ł: 'l',
  Ł: 'l',
  þ: 'th',
  Þ: 'th',
  ð: 'd',
  ı: 'i',
};

export function asciiFold(text: string): string {
  return text
    .replace(/[ßæÆœŒøØđĐłŁþÞðı]/g, (c) => SPECIAL[c])
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '');
}

export function slugify(text: string, maxLength = MAX_SLUG_LENGTH): string {
  const words = asciiFold(text)
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’]/g, '') // "don't" -> "dont", not "don-t"
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
  const content = words.filter((w) => !STOPWORDS.has(w));
  const kept = content.length > 0 ? content : words;
  let slug = '';
  for (const w of kept) {
    const next = slug ? `${slug}-${w}` : w;
    if (next.length > maxLength) {
      if (slug === '') slug = w.slice(0, maxLength);
      break;
    }
    slug = next;
  }
  return slug.replace(/-+$/, '');
}
