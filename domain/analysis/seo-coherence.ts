/**
 * The coherence assessment of the SEO analysis and the cap it puts on
 * seo_score (docs/analysis.md "Coherence"): a text padded with sentences
 * about other subjects, or saying the same sentence again, cannot score
 * above COHERENCE_SCORE_CAP however well it does on structure and keywords.
 */
import {
  COHERENCE_SCORE_CAP,
  CoherenceResult,
  DUPLICATES_CAP,
  REPEATED_4GRAM_CAP,
  REPEATED_4GRAM_OK,
  TOPICALITY_CAP,
  TOPICALITY_FULL,
  measureCoherence,
} from './coherence';
import { documentUnits } from './coherence-units';
import { round } from './readability';
import { Assessment, CoherenceDetails, Finding } from './seo-types';
import { TextDocument } from './text';

/** Findings listing individual sentences stop after this many (the message says how many there are). */
const MAX_LISTED = 10;

const pct = (x: number): string => `${round(x * 100, 1)}%`;
const quote = (s: string): string => `"${s.length > 80 ? `${s.slice(0, 77)}...` : s}"`;

export function assessCoherence(
  doc: TextDocument,
  subject: string[],
): { assessment: Assessment; coherence: CoherenceResult } {
  const c = measureCoherence(documentUnits(doc), subject);
  const whole = { start: 0, end: doc.content.length };
  const findings: Finding[] = [];
  const about = quote(c.subject);
  const others = c.other_terms.slice(0, 5).join(', ');
  if (c.capped) {
    const reasons = [
      ...(c.off_topic_text
        ? [
            `only ${pct(c.topicality)} of the judged sentences are about ${about} (at least ${pct(TOPICALITY_CAP)} needed)`,
          ]
        : []),
      ...(c.duplicate_sentences > 0 && c.repetitive
        ? [`${c.duplicate_sentences} sentence(s) repeat an earlier sentence word for word`]
        : []),
      ...(c.repeated_4gram_share > REPEATED_4GRAM_CAP
        ? [`${pct(c.repeated_4gram_share)} of its wording repeats (above ${pct(REPEATED_4GRAM_CAP)})`]
        : []),
    ];
    findings.push({
      assessment: 'coherence',
      severity: 'problem',
      ...whole,
      message: `seo_score is capped at ${COHERENCE_SCORE_CAP}: ${reasons.join('; ')}.`,
      recommendation: c.off_topic_text
        ? `Keep the text on ${about}: cut the sentences about other subjects${others ? ` (${others})` : ''} or rewrite them about it, and say each thing once. The cap lifts at ${pct(TOPICALITY_CAP)} on-topic sentences, no repeated sentence and under ${pct(REPEATED_4GRAM_CAP)} repeated wording.`
        : `Say each thing once: delete the repeated sentences and vary repeated wording. The cap lifts with fewer than ${DUPLICATES_CAP} repeated sentences (none in a short text) and under ${pct(REPEATED_4GRAM_CAP)} repeated wording.`,
    });
  }
  if (c.topicality < TOPICALITY_FULL) {
    const n = c.off_topic.length;
    c.off_topic.slice(0, MAX_LISTED).forEach((s) =>
      findings.push({
        assessment: 'coherence',
        severity: c.off_topic_text ? 'problem' : 'improvement',
        start: s.start,
        end: s.end,
        message: `Off topic: this sentence is not about ${about}${others ? ` (the text drifts to ${others})` : ''}; ${n} of ${c.judged} judged sentences are.`,
        recommendation: `Cut sentences that are not about ${about}, or rewrite them so they are.`,
      }),
    );
  }
  c.duplicates
    .flatMap((g) => g.spans.slice(1).map((sp) => ({ g, sp })))
    .sort((a, b) => a.sp.start - b.sp.start)
    .forEach(({ g, sp }) =>
      findings.push({
        assessment: 'coherence',
        severity: 'problem',
        ...sp,
        message: `Repeated sentence (${g.count} times): ${quote(g.text)}.`,
        recommendation: 'Delete the repeated sentence, or replace it with something the reader has not read yet.',
      }),
    );
  if (c.repeated_4gram_share > REPEATED_4GRAM_OK) {
    findings.push({
      assessment: 'coherence',
      severity: c.repeated_4gram_share > REPEATED_4GRAM_CAP ? 'problem' : 'improvement',
      ...whole,
      message: `${pct(c.repeated_4gram_share)} of the four-word sequences repeat earlier wording (ordinary prose stays under ${pct(REPEATED_4GRAM_OK)}).`,
      recommendation: 'Vary the wording: rewrite stock phrases that recur from section to section.',
    });
  }
  return {
    assessment: { id: 'coherence', score: c.coherence, applicable: c.sentences > 0, findings },
    coherence: c,
  };
}

/** seo_score after the cap, and the details the response reports. */
export function capScore(score: number, c: CoherenceResult): { seo_score: number; details: CoherenceDetails } {
  const capped = c.capped && score > COHERENCE_SCORE_CAP;
  return {
    seo_score: capped ? COHERENCE_SCORE_CAP : score,
    details: {
      subject: c.subject,
      subject_source: c.subject_source,
      topicality: c.topicality,
      sentences: c.sentences,
      judged_sentences: c.judged,
      off_topic_sentences: c.off_topic.length,
      other_terms: c.other_terms.slice(0, 10),
      duplicate_sentences: c.duplicate_sentences,
      repeated_4gram_share: c.repeated_4gram_share,
      score: Math.round(c.coherence * 100),
      capped: c.capped,
      cap: c.capped ? COHERENCE_SCORE_CAP : null,
      cap_reasons: [
        ...(c.off_topic_text ? ['off_topic' as const] : []),
        ...(c.repetitive ? ['repetitive' as const] : []),
      ],
      uncapped_score: score,
    },
  };
}
