/**
 * The offline script writer (provider `local`, used when no text vendor is
 * configured; not a language model): it says the brief's own outline and
 * research, in turn between the speakers, and adds nothing to reach the
 * duration (see `localScript`). Pure and deterministic.
 */
import { asSentence, coverageOf, readBrief } from '../generation/compose';
import { pointKind } from '../generation/phrases';
import { GENERIC } from '../generation/terms';
import { properNouns, safeLower } from '../generation/text';
import { contentKeys, wordKey } from '../analysis/word-forms';
import { countWords, ScriptDraft, ScriptInput, titleOf } from './script';
import { Finding, scriptContext } from './script-context';
import { WORDS_PER_MINUTE } from './types';

/**
 * How a segment title is said. `sentence`: a statement, an imperative or a noun phrase, said as written ("Seats are
 * free but limited."). `label`: a heading that opens with a gerund ("Building a daytime sleep routine"), announced
 * ("Next: Building a daytime sleep routine."). `heading`: a question-word or stock heading ("Why night workers sleep
 * badly", "Introducing …", "Takeaways on …"), which says nothing by itself: announced only when a finding follows.
 */
function titleKind(title: string): 'sentence' | 'label' | 'heading' {
  if (
    /^(why|how|what|when|where|which|who|introducing|takeaways?|key takeaways|getting started|an example of|common mistakes|measuring|next steps)\b/i.test(
      title,
    )
  )
    return 'heading';
  if (/^\p{L}+ing\b/u.test(title) && pointKind(title) !== 'imperative' && !/^(bring|sing|string|spring)\b/i.test(title))
    return 'label';
  return 'sentence';
}

/** The word-form keys of a text that tie it to a subject (general words such as "people" or "time" left out). */
const specificKeys = (text: string): Set<string> => new Set(contentKeys(text).filter((k) => !GENERIC_KEYS.has(k)));
const GENERIC_KEYS: ReadonlySet<string> = new Set([...GENERIC].map((w) => wordKey(w)));

/** Labels that introduce a segment whose title is a heading: first, middle, last. */
const LABELS = { first: 'First up', next: ['Next', 'Moving on', 'Now'], last: 'And finally' };

/**
 * The offline writer, from relevance, not to a length (domain/generation/compose.ts): every content line is the
 * brief's own material, and nothing is added to reach the duration, so an episode with little in its brief is
 * shorter than its budget (`word_count` against `target_words` shows it).
 *
 * - The host opens (with the show's name from the bible, naming the guest, the topic and the audience); a guest
 *   thanks the host.
 * - One scene per segment of the analysis' outline (several a scene beyond the episode's scene count, about one a
 *   minute), titled by it: a title that is a sentence ("Seats are free
 *   but limited") is said as written; a heading is introduced as the next segment ("Next: Building a daytime
 *   sleep routine."), a stock heading ("Why night workers sleep badly") only when a finding follows it
 *   (`titleKind`). The speakers take the segments in turn.
 * - Research findings about the episode (one specific word shared with the idea or the outline at least) are
 *   said after the segment they share most words with, naming their source ("According to <title or site>, …"),
 *   while the episode stays within its word budget. With no outline they get scenes of their own, titled by the
 *   bible's recurring segments.
 * - The host closes with the bible's sign-off, or a plain one.
 * Names and the user's words keep their capitals; choices are deterministic.
 */
export function localScript(input: ScriptInput): ScriptDraft {
  const topic = input.idea
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.!?]+$/, '');
  const ctx = scriptContext(input);
  const [host, ...others] = input.speakers;
  const guest = others[0];
  const segments = ctx.outline.map((o) => o.title.replace(/[.!?;:]+$/, '')).filter(Boolean);
  const briefKeys = specificKeys([topic, ...segments].join(' '));
  const proper = properNouns([topic, ...segments, ...ctx.findings.map((f) => f.text)]);
  const findings = ctx.findings.filter((f) => [...specificKeys(f.text)].some((k) => briefKeys.has(k)));

  // Scenes: one per outline segment, at most the episode's scene count (about one a minute; segments beyond it
  // share a scene), else the findings' scenes.
  const MAX = Math.max(1, Math.min(40, input.scene_count));
  type Plan = { title: string; segments: string[]; findings: Finding[] };
  let plans: Plan[];
  if (segments.length) {
    const groups = Math.min(MAX, segments.length);
    plans = Array.from({ length: groups }, (_, i) => {
      const mine = segments.slice(
        Math.floor((i * segments.length) / groups),
        Math.floor(((i + 1) * segments.length) / groups),
      );
      return { title: mine.join('; '), segments: mine, findings: [] };
    });
    let turn = 0;
    for (const f of findings) {
      const keys = specificKeys(f.text);
      const score = plans.map((p) => [...specificKeys(p.segments.join(' '))].filter((k) => keys.has(k)).length);
      const best = Math.max(...score);
      // A finding about none of the segments in particular goes to the middle scenes in turn.
      const middle = plans.length > 2 ? plans.slice(1, -1) : plans;
      (best > 0 ? plans[score.indexOf(best)] : middle[turn++ % middle.length]).findings.push(f);
    }
  } else {
    const per = 3;
    const groups = Math.min(MAX - 1, Math.ceil(findings.length / per));
    plans = [{ title: `Introducing ${topic}`, segments: [], findings: [] }];
    for (let i = 0; i < groups; i++)
      plans.push({
        title: ctx.segments.length ? ctx.segments[i % ctx.segments.length] : `What the research says about ${topic}`,
        segments: [],
        findings: findings.slice(i * per, (i + 1) * per),
      });
  }

  const audience = ctx.audience?.replace(/[.!]+$/, '');
  const about = audience
    ? /\bfor\b/i.test(topic)
      ? `${topic}, with ${audience} in mind`
      : `${topic}, for ${audience}`
    : topic;
  const opening = guest
    ? `Welcome to ${ctx.show ?? 'the show'}. I'm ${host.name}, here with ${guest.name} to talk about ${about}.`
    : `Welcome to ${ctx.show ?? 'the show'}. I'm ${host.name}, and today I'm talking about ${about}.`;
  const closing = ctx.signOff ?? 'Thanks for listening, and see you next time.';
  const budget = input.target_words * 1.1;
  let words = countWords(opening) + countWords(closing) + (guest ? 5 : 0);

  const scenes: ScriptDraft['scenes'] = plans.map((p) => ({ title: p.title, lines: [] }));
  let turn = 0;
  const say = (scene: number, text: string) => {
    scenes[scene].lines.push({ speaker: input.speakers[turn % input.speakers.length].id, text });
    turn++;
  };
  say(0, opening);
  if (guest) say(0, `Thanks for having me, ${host.name}.`);
  // The segments are said whatever the budget (they are the brief); the findings while the episode stays within
  // its budget; a stock heading is announced only when a finding follows it (else it says nothing).
  const said = plans.map((p) => p.segments.filter((t) => titleKind(t) !== 'heading'));
  words += said.flat().reduce((n, t) => n + countWords(t), 0);
  const talk = plans.map((p) =>
    p.findings
      .map((f) => `According to ${f.source}, ${safeLower(f.text, proper)}`)
      .filter((line) => {
        if (words + countWords(line) > budget) return false;
        words += countWords(line);
        return true;
      }),
  );
  const announced = plans.flatMap((p, i) =>
    p.segments.filter((t) => titleKind(t) === 'label' || (titleKind(t) === 'heading' && talk[i].length)),
  );
  plans.forEach((p, i) => {
    for (const title of p.segments) {
      if (titleKind(title) === 'sentence') say(i, asSentence(title));
      else if (announced.includes(title)) {
        // Labelled by its place in the whole outline.
        const k = segments.indexOf(title);
        const label =
          k === 0 ? LABELS.first : k === segments.length - 1 ? LABELS.last : LABELS.next[k % LABELS.next.length];
        say(i, `${label}: ${title}.`);
      }
    }
    for (const line of talk[i]) say(i, line);
  });
  scenes[scenes.length - 1].lines.push({ speaker: host.id, text: closing });
  // A speaker's lines next to each other in a scene are one turn.
  for (const scene of scenes)
    scene.lines = scene.lines.reduce<typeof scene.lines>((out, l) => {
      const prev = out[out.length - 1];
      if (prev?.speaker === l.speaker) prev.text = `${prev.text} ${l.text}`;
      else out.push({ ...l });
      return out;
    }, []);
  // What the script was built from (outline segments as key points, research findings as sources), and why it is
  // shorter than the duration asks: it never pads to a length.
  const spoken = scenes.flatMap((s) => s.lines).reduce((n, l) => n + countWords(l.text), 0);
  const quoted = talk.flat().length;
  const coverage = coverageOf(readBrief({ topic, audience, keyPoints: segments, tone: input.tone }), {
    keyPoints: plans.flatMap((p) => p.segments).filter((t) => titleKind(t) === 'sentence' || announced.includes(t))
      .length,
    sources: quoted,
    words: spoken,
    targetWords: input.target_words,
  });
  if (coverage.shortfall)
    coverage.shortfall = `${spoken} of ${input.target_words} words (${input.duration_minutes} min at ${WORDS_PER_MINUTE} words a minute): the offline writer says only the brief (${segments.length} outline segment${segments.length === 1 ? '' : 's'}) and ${quoted} research finding${quoted === 1 ? '' : 's'} about it${input.research ? '' : ' (no research was given)'}, and adds nothing to reach the duration; add research or an analysis outline, or configure a language model (docs/providers.md)`;
  return { title: titleOf(topic), scenes: scenes.filter((s) => s.lines.length), coverage };
}
