/**
 * Offline page-about sections. Claims about a business can only come from the
 * business, so this piece uses the request alone (no research sentences):
 * what it is, whom it serves, its differentiators, an optional call to
 * action. Sentences are added in that order while they fit the character
 * limit, so the text is whole sentences (the finisher still guards the limit).
 */
import type { PageAboutDraft } from '../../writers/drafts';
import type { PageAboutBrief } from '../../writers/types';
import { charCount } from '../../writers/text-limits';
import { capitalize } from '../text';
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
      ? `We are ${article} ${b.businessType}${where} serving ${b.audience || 'our clients'}.`
      : k.family === 'persuasive'
        ? `${capitalize(`${article} ${b.businessType}`)}${where}${who}, built to deliver.`
        : `We're ${article} ${b.businessType}${where}${who}.`;
  const candidates = [
    intro,
    diffs.length ? `What sets us apart: ${listOf(diffs.map((d) => d[0].toLowerCase() + d.slice(1)))}.` : '',
    ...diffs.map((d) => `${capitalize(d)}.`),
    b.includeCta ? (k.family === 'formal' ? 'Contact us to learn more.' : 'Send us a message to get started.') : '',
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
