/**
 * draftOutline: an outline built from the topic, the keywords and what the
 * sources talk about.
 *
 * Sections: an opening section on why the topic matters, one body section
 * per requested keyword and then per phrase the sources share most (see
 * terms.ts), and a closing "takeaways" section. Key points are the phrases
 * shared by the source sentences that best match each heading (BM25);
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

const BODY_HEADINGS = [
  'Understanding {Phrase}',
  'How {Phrase} Works in Practice',
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
  const stats = termStats(numbered.map(({ source }) => `${source.title}. ${source.excerpt ?? ''}`));
  const phrases = topPhrases(stats, total, [topic, ...keywords]).map((s) => s.phrase);
  const bodySubjects = [...keywords, ...phrases].slice(0, Math.max(1, total - 2));

  const headings: Array<{ heading: string; query: string; role: 'open' | 'body' | 'close'; subject: string }> = [
    {
      heading: pick(
        [`Why ${titleCase(topic)} Matters`, `What ${titleCase(topic)} Means for ${titleCase(audience)}`],
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
    {
      heading: 'Key Takeaways and Next Steps',
      query: [topic, ...bodySubjects].join(' '),
      role: 'close',
      subject: topic,
    },
  ];

  const weights = headings.map((h) => (h.role === 'body' ? 1 : h.role === 'open' ? 0.7 : 0.6));
  const targets = largestRemainder(Math.max(0, Math.round(input.wordCount)), weights);

  const bodyPoints: string[][] = [];
  const usedPhrases = new Set<string>([topic.toLowerCase(), ...keywords.map((k) => k.toLowerCase())]);
  const outline: DraftOutlineSection[] = headings.map((h, i) => {
    let keyPoints: string[];
    if (h.role === 'close') {
      // Takeaways revisit the body: its subjects and the first point of each body section.
      const firsts = bodyPoints.map((kps) => kps[0]).filter(Boolean);
      keyPoints = [...new Set([...bodySubjects, ...firsts].map((s) => capitalize(s)))].slice(0, 4);
    } else {
      // Key points are the phrases the best-matching source sentences share, not the sentences themselves:
      // a phrase reads well as a point, a subheading and a subject for the writer.
      const hits = search(sentenceIndex, h.query, 12)
        .filter((x) => !usedSentences.has(x.id))
        .slice(0, 6);
      hits.forEach((x) => usedSentences.add(x.id));
      const texts = hits.map((x) => sentences.find((s) => s.id === x.id)!.text);
      // Phrases shared across sources (global statistics) that these sentences use: recurring terms, not accidents of one sentence.
      const joined = texts.join(' ').toLowerCase();
      const phrasesHere = topPhrases(
        stats
          .filter((st) => joined.includes(st.phrase))
          .sort((a, b) => Number(b.words > 1) - Number(a.words > 1) || b.score - a.score),
        3,
        [h.subject, topic, ...usedPhrases],
      ).map((p) => p.phrase);
      phrasesHere.forEach((p) => usedPhrases.add(p.toLowerCase()));
      keyPoints = phrasesHere.map((p) => capitalize(p));
      if (keyPoints.length < 2)
        keyPoints = [
          `What ${h.subject} involves`,
          `Why ${h.subject} matters for ${audience}`,
          `How to get started with ${h.subject}`,
        ];
      if (h.role === 'body') bodyPoints.push(keyPoints);
    }
    const references = search(docIndex, h.query, 3).map((x) => byNumber.get(Number(x.id))!);
    const sectionKeywords = keywords.filter((k) =>
      `${h.heading} ${keyPoints.join(' ')}`.toLowerCase().includes(k.toLowerCase()),
    );
    return {
      id: `s${i + 1}`,
      heading: h.heading,
      subheadings: h.role === 'body' ? keyPoints.map((k) => titleCase(k)) : [],
      key_points: keyPoints,
      references,
      target_words: targets[i],
      keywords: sectionKeywords.length ? sectionKeywords : [h.subject],
    };
  });

  const main = keywords[0] ?? phrases[0] ?? topic;
  const title_options = [
    `${titleCase(topic)}: A Practical Guide for ${titleCase(audience)}`,
    `How to Approach ${titleCase(topic)}: ${outline.length - 2 || 1} Areas That Matter`,
    `${titleCase(main)} Explained: What ${titleCase(audience)} Need to Know`,
    numbered.length
      ? `The ${titleCase(topic)} Playbook: Lessons from ${numbered.length} Sources`
      : `The ${titleCase(topic)} Playbook`,
  ];
  return { title_options, outline };
}
