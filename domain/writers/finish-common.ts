/**
 * What every finishing rule shares: the finished piece's shape and helpers
 * that hold one field to a limit while recording what changed.
 */
import { formatLimits, FormatLimits } from './platforms';
import {
  Adjustment,
  charCount,
  emojiIn,
  enforceLimits,
  normaliseHashtags,
  shortenText,
  stripEmoji,
} from './text-limits';
import type { WriterBrief } from './types';

export interface Finished {
  /** The whole piece as one plain text (also the `content` of the content_generated webhook). */
  text: string;
  /** The structured piece (shape per kind, docs/writers.md). */
  content: Record<string, unknown>;
  adjustments: Adjustment[];
  /** The text the engagement model scores, when the kind has a feed text. */
  scored?: string;
}

/** Collects adjustments while holding fields of one brief to its format's limits. */
export class Finisher {
  readonly adjustments: Adjustment[] = [];
  readonly limits: FormatLimits;
  constructor(readonly brief: WriterBrief) {
    this.limits = formatLimits(brief.platform, brief.kind);
  }

  /** Emoji removed when the brief asked for none (recorded). */
  emojiRule(text: string, field: string): string {
    const t = (text ?? '').trim();
    if (this.brief.includeEmoji) return t;
    const n = emojiIn(t).length;
    if (n === 0) return t;
    this.adjustments.push({ field, rule: 'max_emoji', before: n, after: 0, detail: 'emoji were not requested' });
    return stripEmoji(t);
  }

  /** A short field (title, headline, slide body) cut to `max` at a sentence or word boundary. */
  short(text: string, max: number, field: string, ellipsis = false): string {
    const t = this.emojiRule(text, field);
    const before = charCount(t);
    if (before <= max) return t;
    const s = shortenText(t, max, { ellipsis });
    this.adjustments.push({
      field,
      rule: 'max_characters',
      before,
      after: charCount(s.text),
      detail:
        s.method === 'sentence'
          ? `shortened at a sentence boundary to ${max} characters`
          : `cut after the last whole word to stay within ${max} characters`,
    });
    return s.text;
  }

  /** A feed text held to the format's limits (hashtags, emoji, line breaks, length) with `max` characters. */
  feed(text: string, field: string, max = this.brief.maxCharacters, extra: Partial<FormatLimits> = {}): string {
    const t = this.emojiRule(text, field);
    const r = enforceLimits(
      t,
      {
        max_characters: max,
        max_hashtags: this.brief.includeHashtags ? (extra.max_hashtags ?? this.limits.max_hashtags) : 0,
        max_emoji: extra.max_emoji ?? this.limits.max_emoji,
        max_line_breaks: extra.max_line_breaks ?? this.limits.max_line_breaks,
      },
      field,
    );
    this.adjustments.push(...r.adjustments);
    return r.text;
  }

  /** The brief's hashtags: none when not requested, else normalised and capped (recorded when capped). */
  hashtags(tags: string[] | undefined, field = 'content.hashtags', max = this.limits.max_hashtags): string[] {
    if (!this.brief.includeHashtags) return [];
    const given = tags ?? [];
    const out = normaliseHashtags(given, max);
    const distinct = normaliseHashtags(given, 1000).length;
    if (distinct > out.length)
      this.adjustments.push({
        field,
        rule: 'max_hashtags',
        before: distinct,
        after: out.length,
        detail: `kept the first ${max} hashtags`,
      });
    return out;
  }
}

export const joinParts = (parts: Array<string | undefined>, sep = '\n\n') =>
  parts
    .map((p) => (p ?? '').trim())
    .filter(Boolean)
    .join(sep);
