/**
 * draftOutline: an outline built from the topic, the keywords and what the
 * sources talk about.
 *
 * Sections: an opening section on the topic, one body section per requested
 * keyword and then per phrase that the sources about the topic share most
 * (see terms.ts); no closing "takeaways" section (a written one could only
 * repeat the body). Key points are the phrases (two words or more) shared by
 * the source sentences about each heading (BM25, two shared content words);
 * references are the sources that best match the section; target words
 * split the total with the largest-remainder method (opening and closing
 * sections weigh less than the body).
 */
import { createBm25Index, search } from '../analysis/bm25';
import { splitSentences } from '../analysis/sentences';
import { largestRemainder } from '../analysis/outline-rebalance';
import type { DraftOutline, DraftOutlineInput, DraftOutlineSection, Source } from './types';
import { numberSources } from './evidence';
import { audienceOf } from './phrases';
import { capitalize, isDangling, pick, tidySourceSentence, titleCase, wordsIn } from './text';
import { termStats, topPhrases } from './terms';
import { isRelevant, keysOf } from './compose';

// Headings that stay grammatical for a singular or a plural phrase (no verb agrees with it).
const BODY_HEADINGS = [
  'Understanding {Phrase}',
  '{Phrase} in Practice',
  'Getting {Phrase} Right',
  'Practical Steps for {Phrase}',
  'What the Research Says About {Phrase}',
  'Common {Phrase} Mistakes to Avoid',
];

/** Number of sections for a word budget: about one per 250 words, 3 to 8. */
export function sectionCount(wordCount: number): number {
  return Math.min(8, Math.max(3, Math.round(wordCount / 250)));
}

export function draftOutline(input: DraftOutlineInput): DraftOutline {
  const topic = input.topic.trim();
  const keywords = (input.keywords ?? []).map((k) => k.trim()).filter(Boolean);
  const numbered = numberSources(input.sources ?? []);
  const audience = audienceOf(input.audience);
  const seed = `${topic}|${keywords.join(';')}|${input.wordCount}`;

  // Sentence index for key points, document index for references.
  const sentences: Array<{ id: string; text: string }> = [];
  numbered.forEach(({ n, source }) =>
    splitSentences(source.excerpt ?? '').forEach((sp, i) => {
      const text = (source.excerpt ?? '').slice(sp.start, sp.end).trim();
      if (wordsIn(text) >= 6 && !isDangling(tidySourceSentence(text)))
        sentences.push({ id: `${n}:${i}:${sentences.length}`, text });
    }),
  );
  const sentenceIndex = createBm25Index(sentences);
  const docIndex = createBm25Index(
    numbered.map(({ n, source }) => ({ id: String(n), text: `${source.title} ${source.excerpt ?? ''}` })),
  );
  const byNumber = new Map(numbered.map(({ n, source }) => [n, { ...source, index: n } as Source]));
  const usedSentences = new Set<string>();

  const total = sectionCount(input.wordCount);
  // Phrases come only from the source sentences about the topic (two shared content words): sources on other
  // subjects must not lend an outline their headings.
  const topicKeys = keysOf(topic, ...keywords);
  const stats = termStats(sentences.filter((x) => isRelevant(x.text, topicKeys)).map((x) => x.text));
  const phrases = topPhrases(
    stats.filter((st) => st.words > 1),
    total,
    [topic, ...keywords],
  ).map((s) => s.phrase);
  // The opening section is about the topic itself: a keyword that is the topic gets no second section.
  const bodySubjects = [...keywords, ...phrases]
    .filter((x) => x.toLowerCase() !== topic.toLowerCase())
    .slice(0, Math.max(1, total - 1));

  const headings: Array<{ heading: string; query: string; role: 'open' | 'body'; subject: string }> = [
    {
      heading: pick(
        [`The Case for ${titleCase(topic)}`, `${titleCase(topic)}: What ${titleCase(audience)} Should Know`],
        seed,
      ),
      query: topic,
      role: 'open',
      subject: topic,
    },
    ...bodySubjects.map((subject, i) => ({
      heading: BODY_HEADINGS[(i + (seed.length % BODY_HEADINGS.length)) % BODY_HEADINGS.length].replace(
        '{Phrase}',
        titleCase(subject),
      ),
      query: `${subject} ${topic}`,
      role: 'body' as const,
      subject,
    })),
  ];

  const weights = headings.map((h) => (h.role === 'body' ? 1 : 0.7));
  const targets = largestRemainder(Math.max(0, Math.round(input.wordCount)), weights);

  const usedPhrases = new Set<string>([topic.toLowerCase(), ...keywords.map((k) => k.toLowerCase())]);
  const outline: DraftOutlineSection[] = headings.map((h, i) => {
    let keyPoints: string[];
    {
      // Key points are the phrases the best-matching source sentences share, not the sentences themselves:
      // a phrase reads well as a point, a subheading and a subject for the writer.
      // Only sentences about the section (two shared content words): a source on another subject gives no points.
      const queryKeys = keysOf(h.query);
      const hits = search(sentenceIndex, h.query, 12)
        .filter((x) => !usedSentences.has(x.id) && isRelevant(sentences.find((s) => s.id === x.id)!.text, queryKeys))
        .slice(0, 6);
      hits.forEach((x) => usedSentences.add(x.id));
      const texts = hits.map((x) => sentences.find((s) => s.id === x.id)!.text);
      // Phrases shared across sources (global statistics) that these sentences use: recurring terms, not accidents of one sentence.
      const joined = texts.join(' ').toLowerCase();
      const phrasesHere = topPhrases(
        stats
          // A point is a phrase of two words or more: a lone word ("Published", "Site") says nothing.
          .filter((st) => joined.includes(st.phrase) && st.words > 1)
          .sort((a, b) => Number(b.words > 1) - Number(a.words > 1) || b.score - a.score),
        3,
        [h.subject, topic, ...usedPhrases],
      ).map((p) => p.phrase);
      phrasesHere.forEach((p) => usedPhrases.add(p.toLowerCase()));
      keyPoints = phrasesHere.map((p) => capitalize(p));
      if (keyPoints.length < 2)
        // Too little in the sources about it for points of its own: the section's subject is its one point
        // (no template points such as "The basics of …": a writer would have to pad them out).
        keyPoints = keyPoints.length ? keyPoints : [capitalize(h.subject)];
    }
    const references = search(docIndex, h.query, 3).map((x) => byNumber.get(Number(x.id))!);
    const sectionKeywords = keywords.filter((k) =>
      `${h.heading} ${keyPoints.join(' ')}`.toLowerCase().includes(k.toLowerCase()),
    );
    return {
      id: `s${i + 1}`,
      heading: h.heading,
      // Subheadings for points of its own (a section whose one point is its subject needs none).
      subheadings:
        h.role === 'body' && !(keyPoints.length === 1 && keyPoints[0].toLowerCase() === h.subject.toLowerCase())
          ? keyPoints.map((k) => titleCase(k))
          : [],
      key_points: keyPoints,
      references,
      target_words: targets[i],
      keywords: sectionKeywords.length ? sectionKeywords : [h.subject],
    };
  });

  const main = keywords[0] ?? phrases[0] ?? topic;
  const title_options = [
    `${titleCase(topic)}: A Practical Guide for ${titleCase(audience)}`,
    `How to Approach ${titleCase(topic)}: ${outline.length} Areas That Matter`,
    `${titleCase(main)} Explained: What ${titleCase(audience)} Need to Know`,
    numbered.length
      ? `The ${titleCase(topic)} Playbook: Lessons from ${numbered.length} Sources`
      : `The ${titleCase(topic)} Playbook`,
  ];
  return { title_options, outline };
}
