/**
 * The pure half of the llama provider: the quality gate, the sentence units a
 * rewrite works on (citations taken off and put back), plan paths, the
 * short-copy template writer and the claim check of rewritten sentences.
 */
import {
  assemble,
  claimsHold,
  cleanModelText,
  gateCopy,
  gateRewrite,
  gateText,
  isRepetitive,
  looksEnglish,
  rewriteUnits,
  targetsOf,
  trimAtSentence,
  withValue,
  writeShortCopy,
  citationNumbers,
  COPY_FORMS,
} from '../../../domain/generation';

const SOURCES = [
  {
    title: 'Editorial calendars in practice',
    url: 'https://example.org/calendars',
    excerpt:
      'A content calendar lists every planned piece with its owner and publication date. Teams that review their calendar monthly catch gaps before they become missed weeks.',
  },
];

describe('cleanModelText', () => {
  test.each([
    ['Here\'s a rewritten headline: "Plan Your Month: Content Calendars"', 'Plan Your Month: Content Calendars'],
    ['Subject: One calendar, fewer missed weeks\n\nThis subject line helps teams.', 'One calendar, fewer missed weeks'],
    ['**Headline:** Calendars for Small Teams', 'Calendars for Small Teams'],
    ['- Review the calendar every month.', 'Review the calendar every month.'],
  ])('%j -> %j', (raw, clean) => expect(cleanModelText(raw, true)).toBe(clean));
});

describe('gateRewrite', () => {
  const original = 'Teams that review their calendar monthly catch gaps before they become missed weeks.';
  test('a faithful paraphrase passes, ending with punctuation', () => {
    expect(
      gateRewrite(original, 'Teams reviewing their calendar monthly catch gaps before they turn into missed weeks'),
    ).toEqual({
      ok: true,
      text: 'Teams reviewing their calendar monthly catch gaps before they turn into missed weeks.',
    });
  });
  test.each([
    ['Teams that review their calendar 3 times a month catch gaps early.', 'unsupported_number'],
    [
      'Teams at Google that review their calendar monthly catch gaps before they become missed weeks.',
      'unsupported_name',
    ],
    ['Social media is a great way to reach new audiences and grow your brand online.', 'meaning_drift'],
    ["Here's the sentence rewritten: I've kept the original meaning of the sentence intact.", 'meta_talk'],
    ['', 'empty'],
    ['Les équipes qui révisent leur calendrier chaque mois évitent les semaines manquées.', 'off_language'],
  ])('%j is refused (%s)', (candidate, reason) =>
    expect(gateRewrite(original, candidate)).toEqual({ ok: false, reason }),
  );
  test('a rewrite that turns the meaning around is refused (meaning_changed); a faithful one passes', () => {
    const source = 'Publishing fewer, better-researched pieces usually beats publishing many thin ones.';
    expect(gateRewrite(source, 'Publishing fewer, better-researched pieces is often a recipe for disaster.')).toEqual({
      ok: false,
      reason: 'meaning_changed',
    });
    expect(
      gateRewrite(source, 'Publishing fewer but better-researched pieces usually beats publishing lots of thin ones.'),
    ).toEqual({
      ok: true,
      text: 'Publishing fewer but better-researched pieces usually beats publishing lots of thin ones.',
    });
  });
  test.each([
    [
      'a dropped negation',
      'Teams that do not review their calendar monthly miss gaps until they become missed weeks.',
      'Teams that review their calendar monthly miss gaps until they become missed weeks.',
    ],
    [
      'an added negation',
      'Teams that review their calendar monthly catch gaps before they become missed weeks.',
      'Teams that review their calendar monthly never catch gaps before they become missed weeks.',
    ],
    [
      'an antonym',
      'Stock photos on a landing page often reduce the trust that visitors have in it.',
      'Stock photos on a landing page often increase the trust that visitors have in it.',
    ],
    [
      'a stronger hedge',
      'Stock photos can reduce trust on landing pages.',
      'Stock photos will reduce trust on landing pages.',
    ],
    [
      'swapped sides',
      'Short videos often hold attention better than long ones.',
      'Long videos often hold attention better than short ones.',
    ],
  ])('%s is refused with meaning_changed', (_what, original, rewritten) =>
    expect(gateRewrite(original, rewritten)).toEqual({ ok: false, reason: 'meaning_changed' }),
  );
  test('numbers must stay: dropping one is refused too', () => {
    expect(gateRewrite('About 45% of teams plan a month ahead.', 'Many teams plan a month ahead.')).toEqual({
      ok: false,
      reason: 'unsupported_number',
    });
  });
});

describe('gateCopy', () => {
  const base = {
    material: ['content calendars', 'small marketing teams', 'plan posts weeks ahead', 'review the calendar monthly'],
    subject: 'content calendars plan posts weeks ahead review the calendar monthly',
  };
  test('a social post over its limit is cut at the last sentence end that fits', () => {
    const raw =
      'Plan your posts weeks ahead with a content calendar. Review the calendar monthly to catch gaps. Small teams win when the plan is simple and shared with everyone.';
    const v = gateCopy(raw, { ...base, form: 'social_post', maxChars: 110 });
    expect(v).toEqual({
      ok: true,
      text: 'Plan your posts weeks ahead with a content calendar. Review the calendar monthly to catch gaps.',
    });
  });
  test.each([
    ['A Complete and Practical Guide to Content Calendars for Every Small Team', 'headline', 40, 'too_long'],
    ['Plan posts plan posts plan posts plan posts plan posts plan posts plan posts.', 'social_post', 300, 'repetitive'],
    ['Use a content calendar: 87% of teams plan posts weeks ahead.', 'social_post', 300, 'unsupported_number'],
    ['Sarah from Acme plans her content calendar weeks ahead.', 'social_post', 300, 'unsupported_name'],
    ['Bake bread at home with simple ingredients and patience.', 'caption', 300, 'off_topic'],
  ] as const)('%j (%s, %i) is refused: %s', (raw, form, maxChars, reason) =>
    expect(gateCopy(raw, { ...base, form, maxChars })).toEqual({ ok: false, reason }),
  );
  test('headlines keep their capitals and lose a trailing full stop', () => {
    expect(gateCopy('"Content Calendars That Small Teams Keep."', { ...base, form: 'headline', maxChars: 70 })).toEqual(
      {
        ok: true,
        text: 'Content Calendars That Small Teams Keep',
      },
    );
  });
});

describe('repetition, language, free answers', () => {
  test('loops and repeated sentences are repetitive; ordinary prose is not', () => {
    expect(isRepetitive('Plan ahead. Review monthly. Plan ahead.')).toBe(true);
    expect(
      isRepetitive('Monday: Planning Tuesday: Planning Wednesday: Planning Thursday: Planning Friday: Planning'),
    ).toBe(true);
    expect(isRepetitive(SOURCES[0].excerpt)).toBe(false);
  });
  test('English prose passes; other scripts and languages do not', () => {
    expect(looksEnglish(SOURCES[0].excerpt)).toBe(true);
    expect(looksEnglish('内容日历帮助团队提前计划')).toBe(false);
    expect(looksEnglish('Der Redaktionsplan hilft dem Team, die Beiträge rechtzeitig zu planen und zu prüfen.')).toBe(
      false,
    );
  });
  test('gateText: a chat answer that loops falls back', () => {
    expect(gateText('plan plan plan plan plan plan plan plan plan plan plan plan plan')).toEqual({
      ok: false,
      reason: 'repetitive',
    });
  });
  test('trimAtSentence: undefined when the first sentence is already too long', () => {
    expect(trimAtSentence('One long first sentence here. Two.', 10)).toBeUndefined();
    expect(trimAtSentence('Short one. Another sentence follows.', 12)).toBe('Short one.');
  });
});

describe('rewrite units', () => {
  const md = [
    'A content calendar lists every planned piece with its owner [1]. Try one small change this week.',
    '',
    '### Why it matters',
    '',
    '- Review the calendar every month to catch gaps [1][2].',
    '- See [the guide](https://example.org) for more.',
    '',
    '```',
    'Code stays as it is.',
    '```',
    'Numbers like 45% stay checked [2], and so do mid-sentence markers [1].',
    '',
    '## References',
    '',
    '1. Editorial calendars in practice. <https://example.org/calendars>',
  ].join('\n');

  test('prose sentences are offered without their trailing markers; everything else is left alone', () => {
    const doc = rewriteUnits(md);
    expect(doc.units.map((u) => [u.text, u.markers])).toEqual([
      ['A content calendar lists every planned piece with its owner.', '[1]'],
      ['Try one small change this week.', ''],
      ['Review the calendar every month to catch gaps.', '[1][2]'],
    ]);
  });

  test('assemble puts every marker back before the final punctuation', () => {
    const doc = rewriteUnits(md);
    const out = assemble(
      doc,
      new Map([
        [0, 'Every planned piece and its owner go on a content calendar.'],
        [2, 'Check the calendar monthly so gaps show up early!'],
      ]),
    );
    expect(out).toContain('Every planned piece and its owner go on a content calendar [1].');
    expect(out).toContain('- Check the calendar monthly so gaps show up early [1][2]!');
    expect(citationNumbers(out)).toEqual(citationNumbers(md));
    expect(out.split('\n').slice(2)).toEqual(
      md
        .split('\n')
        .slice(2)
        .map((l, i) => (i === 2 ? out.split('\n')[4] : l)),
    );
  });
});

describe('plan paths', () => {
  const doc = { title_options: ['A', 'B'], post: { text: 'T', hashtags: ['#x'] }, n: 3 };
  test('targetsOf resolves * and skips what is not a string', () => {
    expect(targetsOf(doc, 'title_options.*')).toEqual([
      { path: 'title_options.0', value: 'A' },
      { path: 'title_options.1', value: 'B' },
    ]);
    expect(targetsOf(doc, 'post.text')).toEqual([{ path: 'post.text', value: 'T' }]);
    expect(targetsOf(doc, 'n')).toEqual([]);
    expect(targetsOf('whole', '')).toEqual([{ path: '', value: 'whole' }]);
  });
  test('withValue replaces one string and copies the rest', () => {
    const out = withValue(doc, 'title_options.1', 'C') as typeof doc;
    expect(out.title_options).toEqual(['A', 'C']);
    expect(doc.title_options).toEqual(['A', 'B']);
    expect(withValue('old', '', 'new')).toBe('new');
  });
});

describe('short copy template writer', () => {
  test.each(COPY_FORMS.map((f) => [f]))('%s stays within its limit and names the topic', (form) => {
    for (const maxChars of [40, 70, 280]) {
      const c = writeShortCopy({
        form,
        topic: 'content calendars',
        audience: 'small marketing teams',
        keyPoints: ['plan posts weeks ahead', 'review the calendar monthly'],
        maxChars,
      });
      expect([...c.text].length).toBeLessThanOrEqual(maxChars);
      expect(c.text.toLowerCase()).toMatch(/content|calendar/);
    }
  });
});

describe('claim check of a rewrite', () => {
  test('a planted unsupported statistic makes the rewrite fail; a faithful one holds', () => {
    const original = 'Teams that review their calendar monthly catch gaps before they become missed weeks.';
    expect(
      claimsHold(original, 'Teams reviewing the calendar monthly catch gaps before they become missed weeks.', SOURCES),
    ).toBe(true);
    expect(
      claimsHold(
        original,
        'Teams that review their calendar monthly publish 73% more posts than other teams.',
        SOURCES,
      ),
    ).toBe(false);
  });
});
