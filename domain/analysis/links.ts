/**
 * Links and images in Markdown and HTML, with their offsets.
 *
 * Recognised: [text](url "title"), <a href="url">text</a>, ![alt](src),
 * <img src alt>. Bare URLs in prose are not counted as links. Anything
 * inside fenced code blocks is ignored.
 */
import { Block } from './markdown';
import { stripInline } from './inline';
import { Span } from './types';

export interface Link extends Span {
  text: string;
  url: string;
}

export interface Image extends Span {
  src: string;
  /** null when an HTML <img> has no alt attribute at all; '' when it is empty. */
  alt: string | null;
}

const MD_IMAGE = /!\[([^\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+["'][^"']*["'])?\s*\)/g;
const MD_LINK = /(?<!!)\[([^\]]+)\]\(\s*<?([^)\s>]+)>?(?:\s+["'][^"']*["'])?\s*\)/g;
const HTML_IMG = /<img\b[^>]*>/gi;
const HTML_A = /<a\b([^>]*)>([\s\S]*?)<\/a>/gi;

function attr(tag: string, name: string): string | null {
  const m = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return m ? (m[1] ?? m[2] ?? m[3] ?? '') : null;
}

export function extractLinksAndImages(content: string, blocks: Block[]): { links: Link[]; images: Image[] } {
  const code = blocks.filter((b) => b.kind === 'code');
  const inCode = (i: number): boolean => code.some((b) => i >= b.start && i < b.end);
  const links: Link[] = [];
  const images: Image[] = [];
  for (const m of content.matchAll(MD_IMAGE)) {
    if (!inCode(m.index!)) images.push({ src: m[2], alt: m[1], start: m.index!, end: m.index! + m[0].length });
  }
  for (const m of content.matchAll(HTML_IMG)) {
    if (!inCode(m.index!))
      images.push({
        src: attr(m[0], 'src') ?? '',
        alt: attr(m[0], 'alt'),
        start: m.index!,
        end: m.index! + m[0].length,
      });
  }
  for (const m of content.matchAll(MD_LINK)) {
    if (!inCode(m.index!))
      links.push({ text: stripInline(m[1]).text, url: m[2], start: m.index!, end: m.index! + m[0].length });
  }
  for (const m of content.matchAll(HTML_A)) {
    const href = attr(m[1], 'href');
    if (href !== null && !inCode(m.index!)) {
      links.push({ text: stripInline(m[2]).text.trim(), url: href, start: m.index!, end: m.index! + m[0].length });
    }
  }
  const byStart = (a: Span, b: Span): number => a.start - b.start;
  return { links: links.sort(byStart), images: images.sort(byStart) };
}

function hostOf(url: string): string | null {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#:]+)/i.exec(url) ?? /^\/\/([^/?#:]+)/.exec(url);
  return m ? m[1].toLowerCase().replace(/^www\./, '') : null;
}

/**
 * Internal = relative URL (/path, #anchor, ./x) or same host as `siteUrl`.
 * mailto:/tel: links are neither and return null.
 */
export function classifyLink(url: string, siteUrl?: string): 'internal' | 'outbound' | null {
  if (/^(mailto|tel|javascript):/i.test(url)) return null;
  const host = hostOf(url);
  if (host === null) return 'internal';
  const site = siteUrl ? hostOf(siteUrl) : null;
  return site !== null && (host === site || host.endsWith('.' + site)) ? 'internal' : 'outbound';
}
