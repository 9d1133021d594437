/**
 * Offline event pieces: the description states only what the request gives
 * (name, date, duration, type, audience, focus) plus source sentences about
 * the event's name or focus (none when no source is about them); social
 * proof, when asked for, is a quoted source sentence about it, never an
 * invented attendance figure. Every post names the event.
 */
import type { EventDraft } from '../../writers/drafts';
import type { EventBrief } from '../../writers/types';
import { emoji, frame, hashtagsFor, Kit, slotsOf } from './kit';

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** "Tuesday 5 March 2027, 18:00 UTC" from an ISO 8601 date-time (the form is fixed: no locale involved). */
export function eventDate(iso?: string): string | undefined {
  if (!iso) return undefined;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const hh = String(d.getUTCHours()).padStart(2, '0');
  const mm = String(d.getUTCMinutes()).padStart(2, '0');
  return `${DAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${hh}:${mm} UTC`;
}

export function writeEvent(k: Kit, b: EventBrief): EventDraft {
  const e = b.event;
  const when = eventDate(e.date);
  const what = e.type ? `${/^[aeiou]/i.test(e.type) ? 'an' : 'a'} ${e.type}` : 'an event';
  const slots = slotsOf(k, { name: e.name, when: when ?? 'soon', what, focus: b.contentFocus || k.topic });
  const evidence = k.evidence(`${e.name} ${e.type ?? ''} ${b.contentFocus}`, b.socialProof ? 3 : 2, 32);
  const [proof, ...about] = b.socialProof ? [evidence[0], ...evidence.slice(1)] : [undefined, ...evidence];
  const facts = [
    frame('{Name} is {what}', slots) + (e.targetAudience ? ` for ${e.targetAudience}` : '') + '.',
    when ? `When: ${when}${e.duration ? ` (${e.duration})` : ''}.` : e.duration ? `Duration: ${e.duration}.` : '',
    b.contentFocus ? `Focus: ${b.contentFocus.replace(/[.!]+$/, '')}.` : '',
  ].filter(Boolean);
  const urgency = b.urgency ? `${b.urgency.replace(/[.!]+$/, '')}.` : undefined;
  return {
    title: e.name,
    description: [...facts, ...about.filter(Boolean).map((x) => x!.text)].join(' '),
    highlights: [b.contentFocus, ...k.phrases.slice(0, 3)].filter(Boolean),
    ...(urgency ? { urgency_line: urgency } : {}),
    ...(proof ? { social_proof: `As “${proof.title}” puts it: ${proof.text}` } : {}),
    announcement_post: [
      `${emoji(k, 'lead')} ${frame('Join us for {name}!', slots)}`.trim(),
      facts.slice(1).join(' '),
      about[0]?.text ?? '',
      urgency ?? '',
      `${emoji(k, 'cta')} ${frame('RSVP for {name} on the event page.', slots)}`.trim(),
    ]
      .filter(Boolean)
      .join('\n\n'),
    reminder_post: [
      frame('Reminder: {name} is {when}.', slots),
      urgency ?? '',
      frame('Not registered for {name} yet? RSVP on the event page.', slots),
    ]
      .filter(Boolean)
      .join(' '),
    follow_up_posts: b.followUp
      ? [
          frame('Thank you to everyone who joined {name}. What was your main takeaway from {name}?', slots),
          frame('Missed {name}? Follow us to hear about the next event on {focus}.', slots),
        ]
      : [],
    hashtags: hashtagsFor(k, [e.type ?? '']),
  };
}
