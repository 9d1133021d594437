/**
 * Offline page-about sections. Claims about a business can only come from the
 * business, so this piece uses the request alone (no research sentences):
 * what it is, whom it serves, its differentiators, an optional call to
 * action naming the business. Sentences are added in that order while they
 * fit the character limit, so the text is whole sentences (the finisher still
 * guards the limit). The client's words keep their capitals (social-compose.ts
 * `lowerFirst` lowers only a first word that cannot be a name).
 */
import type { PageAboutDraft } from '../../writers/drafts';
import type { PageAboutBrief } from '../../writers/types';
import { charCount } from '../../writers/text-limits';
import { capitalize } from '../text';
import { lowerFirst } from '../social-compose';
import { Kit } from './kit';

const listOf = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

export function writePageAbout(k: Kit, b: PageAboutBrief): PageAboutDraft {
  const article = /^[aeiou]/i.test(b.businessType) ? 'an' : 'a';
  const who = b.audience ? ` for ${b.audience}` : '';
  const where = b.industry
    ? ` in ${/industry|sector|market/i.test(b.industry) ? '' : 'the '}${b.industry}${/industry|sector|market/i.test(b.industry) ? '' : ' industry'}`
    : '';
  const diffs = b.differentiators.map((d) => d.replace(/[.!?]+$/, '').trim()).filter((d) => /[\p{L}\p{N}]/u.test(d));
  const intro =
    k.family === 'formal'
      ? `We are ${article} ${b.businessType}${where}${b.audience ? ` serving ${b.audience}` : ''}.`
      : `We're ${article} ${b.businessType}${where}${who}.`;
  // The call names the business, so it is about this page, not any page.
  const call =
    k.family === 'formal'
      ? `Contact us to learn more about our ${b.businessType}.`
      : `Send us a message to get started with our ${b.businessType}.`;
  const candidates = [
    intro,
    diffs.length ? `What sets us apart: ${listOf(diffs.map((p) => lowerFirst(p)))}.` : '',
    ...diffs.map((d) => `${capitalize(d)}.`),
    b.includeCta ? call : '',
  ].filter(Boolean);
  // Whole sentences in priority order while they fit; the list of differentiators and its items never both appear.
  const out: string[] = [];
  let size = 0;
  let listed = false;
  for (const c of candidates) {
    if (listed && diffs.some((d) => c === `${capitalize(d)}.`)) continue;
    const add = charCount(c) + (out.length ? 1 : 0);
    if (size + add > b.characterLimit) continue;
    out.push(c);
    size += add;
    if (c.startsWith('What sets us apart')) listed = true;
  }
  return { text: out.join(' ') || intro };
}
