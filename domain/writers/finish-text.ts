/**
 * Finishing rules of the text kinds: posts, group posts, articles, events,
 * page-about sections and ad copy. Each holds its fields to the format's
 * limits (the body of a post gives way first, so the hook, the question and
 * the call to action survive) and assembles the piece's plain text.
 */
import {
  AD_CTA_BUTTONS,
  AD_FORMAT_LIMITS,
  AD_LIMITS_CHECKED,
  AD_LIMITS_SOURCE,
  AdFormat,
  ctaButtonFor,
} from './ad-formats';
import type { AdCopyDraft, ArticleDraft, EventDraft, GroupPostDraft, PageAboutDraft, PostDraft } from './drafts';
import { Finished, Finisher, joinParts } from './finish-common';
import { charCount, countWordsIn, shortenText } from './text-limits';
import type { AdCopyBrief, ArticleBrief, EventBrief, GroupPostBrief, PageAboutBrief, PostBrief, Source } from './types';

/**
 * Hook, body, question, call to action and hashtags within `max` characters:
 * the body is shortened first (at a sentence boundary), then the whole text
 * is held to the limits as a final guard.
 */
function feedPost(
  f: Finisher,
  parts: { head: string[]; body: string; tail: string[] },
  tags: string[],
): { text: string; body: string } {
  const max = f.brief.maxCharacters;
  const tagLine = tags.join(' ');
  const fixed = joinParts([...parts.head, ...parts.tail, tagLine]);
  const separators = 2 * [...parts.head, ...parts.tail, tagLine].filter((p) => p.trim()).length;
  const room = max - charCount(fixed) - separators;
  let body = f.emojiRule(parts.body, 'content.body');
  if (charCount(body) > room) {
    const before = charCount(body);
    body = room > 0 ? shortenText(body, room).text : '';
    f.adjustments.push({
      field: 'content.body',
      rule: 'max_characters',
      before,
      after: charCount(body),
      detail: `body shortened at a sentence boundary so the post stays within ${max} characters`,
    });
  }
  const text = f.feed(joinParts([...parts.head, body, ...parts.tail, tagLine]), 'text', max, {
    max_hashtags: tags.length + f.limits.max_hashtags,
  });
  return { text, body };
}

export function finishPost(b: PostBrief, d: PostDraft): Finished {
  const f = new Finisher(b);
  const hook = f.emojiRule(d.hook, 'content.hook');
  const question = b.question ? f.emojiRule(d.question ?? '', 'content.question') : '';
  const cta = b.cta ? f.emojiRule(d.call_to_action ?? '', 'content.call_to_action') : '';
  const tags = f.hashtags(d.hashtags);
  const { text, body } = feedPost(f, { head: [hook], body: d.body, tail: [question, cta] }, tags);
  const poll =
    b.poll && d.poll
      ? {
          question: f.short(d.poll.question, 140, 'content.poll.question'),
          options: d.poll.options.slice(0, 4).map((o, i) => f.short(o, 30, `content.poll.options.${i}`)),
        }
      : undefined;
  return {
    text,
    scored: text,
    adjustments: f.adjustments,
    content: {
      hook,
      body,
      ...(question ? { question } : {}),
      ...(poll ? { poll } : {}),
      ...(cta ? { call_to_action: cta } : {}),
      hashtags: tags,
      content_type: b.contentType,
      ...(d.image_prompt && b.image.requested ? { image_prompt: d.image_prompt.trim() } : {}),
    },
  };
}

export function finishGroupPost(b: GroupPostBrief, d: GroupPostDraft): Finished {
  const f = new Finisher(b);
  const title = d.title ? f.short(d.title, 100, 'content.title') : '';
  const opening = f.emojiRule(d.opening, 'content.opening');
  const question = f.emojiRule(d.discussion_question, 'content.discussion_question');
  const cta = f.emojiRule(d.call_to_action ?? '', 'content.call_to_action');
  const tags = f.hashtags(d.hashtags);
  const { text, body } = feedPost(f, { head: [title, opening], body: d.body, tail: [question, cta] }, tags);
  return {
    text,
    scored: text,
    adjustments: f.adjustments,
    content: {
      ...(title ? { title } : {}),
      opening,
      body,
      discussion_question: question,
      ...(cta ? { call_to_action: cta } : {}),
      hashtags: tags,
      engagement_goal: b.goal,
    },
  };
}

/** Article: `# title`, `##` sections, hashtags, then `## References` with the sources its [n] markers cite. */
export function finishArticle(b: ArticleBrief, d: ArticleDraft, sources: Source[]): Finished {
  const f = new Finisher(b);
  const title = f.short(d.title, f.limits.max_title_characters ?? 150, 'content.title');
  const sections = d.sections.map((s, i) => ({
    heading: f.short(s.heading, 150, `content.sections.${i}.heading`),
    body: f.emojiRule(s.body, `content.sections.${i}.body`),
  }));
  const tags = f.hashtags(d.hashtags);
  const cited = new Set<number>();
  for (const s of sections) for (const m of s.body.matchAll(/\[(\d+)\]/g)) cited.add(Number(m[1]));
  const references = sources.filter((s, i) => cited.has(s.index ?? i + 1));
  const refBlock = references.length
    ? `## References\n\n${references.map((s, i) => `[${s.index ?? i + 1}] ${s.title} — ${s.url}`).join('\n')}`
    : '';
  const tagLine = tags.join(' ');
  const budget = b.maxCharacters - charCount(refBlock) - charCount(tagLine) - 4;
  const body = f.feed(
    joinParts([`# ${title}`, ...sections.map((s) => `## ${s.heading}\n\n${s.body}`)]),
    'content.markdown',
    Math.max(1, budget),
    { max_hashtags: 1000, max_line_breaks: f.limits.max_line_breaks },
  );
  const markdown = joinParts([body, tagLine, refBlock]);
  // The sections as they survived the length limit.
  const kept = body
    .split(/\n(?=## )/)
    .slice(1)
    .map((block) => {
      const [head, ...rest] = block.split('\n');
      return { heading: head.replace(/^##\s+/, ''), body: rest.join('\n').trim() };
    });
  return {
    text: markdown,
    scored: markdown,
    adjustments: f.adjustments,
    content: {
      title,
      sections: kept,
      markdown,
      word_count: countWordsIn(body.replace(/^#+\s.*$/gm, '')),
      hashtags: tags,
      references,
      content_type: b.contentType,
    },
  };
}

export function finishEvent(b: EventBrief, d: EventDraft): Finished {
  const f = new Finisher(b);
  const title = f.short(d.title || b.event.name, f.limits.max_title_characters ?? 64, 'content.title');
  const tags = f.hashtags(d.hashtags);
  const withTags = (t: string) => joinParts([t, tags.join(' ')]);
  const announcement = f.feed(withTags(d.announcement_post), 'content.announcement_post');
  const follow = b.followUp ? (d.follow_up_posts ?? []).map((p, i) => f.feed(p, `content.follow_up_posts.${i}`)) : [];
  const description = f.feed(d.description, 'content.description');
  return {
    text: joinParts([title, description, announcement]),
    scored: announcement,
    adjustments: f.adjustments,
    content: {
      title,
      description,
      schedule: { date: b.event.date ?? null, duration: b.event.duration ?? null, type: b.event.type ?? null },
      highlights: (d.highlights ?? []).map((h, i) => f.short(h, 200, `content.highlights.${i}`)),
      ...(b.urgency && d.urgency_line ? { urgency_line: f.short(d.urgency_line, 200, 'content.urgency_line') } : {}),
      ...(b.socialProof && d.social_proof
        ? { social_proof: f.short(d.social_proof, 400, 'content.social_proof') }
        : {}),
      announcement_post: announcement,
      reminder_post: f.feed(d.reminder_post ?? '', 'content.reminder_post'),
      follow_up_posts: follow,
      hashtags: tags,
    },
  };
}

export function finishPageAbout(b: PageAboutBrief, d: PageAboutDraft): Finished {
  const f = new Finisher(b);
  const text = f.feed(d.text, 'content.text', b.characterLimit);
  return {
    text,
    adjustments: f.adjustments,
    content: { text, character_limit: b.characterLimit, character_count: charCount(text) },
  };
}

export function finishAdCopy(b: AdCopyBrief, d: AdCopyDraft): Finished {
  const f = new Finisher(b);
  const l = AD_FORMAT_LIMITS[b.adFormat as AdFormat];
  if (d.variants.length > l.variants)
    f.adjustments.push({
      field: 'content.variants',
      rule: 'variants',
      before: d.variants.length,
      after: l.variants,
      detail: `${b.adFormat} takes ${l.variants} variants`,
    });
  const fallbackCta = ctaButtonFor(b.objective);
  const variants = d.variants.slice(0, l.variants).map((v, i) => {
    const at = `content.variants.${i}`;
    if (!l.description && v.description)
      f.adjustments.push({
        field: `${at}.description`,
        rule: 'not_shown',
        before: charCount(v.description),
        after: 0,
        detail: `${b.adFormat} ads show no description`,
      });
    const primary = f.short(v.primary_text, l.primary_text, `${at}.primary_text`, true);
    const headline = f.short(v.headline, l.headline, `${at}.headline`);
    const description =
      l.description && v.description ? f.short(v.description, l.description, `${at}.description`) : undefined;
    const button = (AD_CTA_BUTTONS as readonly string[]).find(
      (x) => x.toLowerCase() === (v.call_to_action ?? '').trim().toLowerCase(),
    );
    return {
      index: i + 1,
      angle: v.angle || `variant ${i + 1}`,
      primary_text: primary,
      headline,
      ...(description ? { description } : {}),
      call_to_action: button ?? fallbackCta,
      character_counts: {
        primary_text: charCount(primary),
        headline: charCount(headline),
        ...(description ? { description: charCount(description) } : {}),
      },
    };
  });
  return {
    text: variants
      .map((v) => joinParts([v.primary_text, v.headline, v.description, `[${v.call_to_action}]`], '\n'))
      .join('\n\n'),
    adjustments: f.adjustments,
    content: {
      ad_format: b.adFormat,
      campaign_objective: b.objective,
      format_limits: { ...l, checked_at: AD_LIMITS_CHECKED, source: AD_LIMITS_SOURCE },
      variants,
    },
  };
}
