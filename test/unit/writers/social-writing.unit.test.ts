/**
 * The offline social writers write what a marketer could publish (issue "Writing a marketer would publish"): every
 * sentence is about the brief (no "What has worked for you?"), a source sentence only where it names a phrase of
 * the topic, the client's words as written (names keep their capitals), hashtags of whole phrases, a call to
 * action made from the topic, and shorter text rather than padding when the sources say nothing about the topic.
 */
import { contentKeys } from '../../../domain/analysis/word-forms';
import { splitSentences } from '../../../domain/analysis/sentences';
import { namesIn, readBrief } from '../../../domain/generation/compose';
import { writeShortCopy } from '../../../domain/generation/copy';
import { writePlatformPost } from '../../../domain/generation/platform-post';
import { aboutTopic, briefHashtags, lowerFirst, tagWords, topicRef } from '../../../domain/generation/social-compose';
import { writeSocial } from '../../../domain/generation/social';
import type { Source } from '../../../domain/generation';
import { PLATFORMS } from '../../../domain/content/platforms';
import { buildJob } from '../../../domain/writers/briefs';
import { writerRequest } from '../../../api/writers/schemas';
import { finishDraft } from '../../../domain/writers/finish';
import { emptyPreferences } from '../../../domain/writers/preferences';
import { createCorpusProvider, DEFAULT_CORPUS_DIR } from '../../../infra/research';

const corpus = createCorpusProvider({ dir: DEFAULT_CORPUS_DIR, publicBaseUrl: 'http://127.0.0.1:8000' });
const sourcesFor = async (q: string, limit = 6): Promise<Source[]> =>
  (await corpus.search(q, { limit })).map((s, i) => ({ ...s, index: i + 1 }));

const BOOKSHOP = {
  topic: 'author events at an independent bookshop',
  key_points: [
    'Riverside Books hosts an author reading every Thursday evening',
    "children's story time runs on Saturday mornings",
    'seats are free but limited, so booking ahead matters',
  ],
};

/** Sentences of a text without hashtags, emoji and source names in brackets. */
const sentencesOf = (text: string) => {
  const t = text
    .replace(/#[\p{L}\p{N}_]+/gu, '')
    .replace(/\([^)]*\)/g, '')
    .replace(/[→•✨📌🚀💡👉👇✅▪️🔥]/gu, ' ');
  return splitSentences(t)
    .map((sp) => t.slice(sp.start, sp.end).trim())
    .filter((s) => s.split(/\s+/).length >= 4);
};
const about = (sentence: string, ...briefTexts: string[]) => {
  const keys = new Set(briefTexts.flatMap((t) => contentKeys(t)));
  return contentKeys(sentence).some((k) => keys.has(k));
};

describe('the shared grammar of the social writers', () => {
  it('names the topic shortly after the opening line, keeping its meaning', () => {
    expect(topicRef('author events at an independent bookshop')).toBe('author events');
    expect(topicRef('protecting home water pipes from freezing in winter')).toBe('protecting home water pipes');
    expect(topicRef('an email newsletter people want to read')).toBe('email newsletters');
    expect(topicRef('keeping a commuter bike in good repair')).toBe('keeping a commuter bike in good repair');
    expect(topicRef('when to post on social media')).toBe('when to post on social media');
    expect(topicRef('local SEO')).toBe('local SEO');
  });

  it('makes hashtags of whole phrases and names, never fragments, days or lone capitalised words', () => {
    const b = readBrief({ topic: BOOKSHOP.topic, keyPoints: BOOKSHOP.key_points });
    const names = namesIn([BOOKSHOP.topic, ...BOOKSHOP.key_points]);
    expect(names).toEqual(expect.arrayContaining(['Riverside Books', 'Thursday', 'Saturday']));
    expect(names).not.toContain('Books');
    expect(briefHashtags(b, names, 5)).toEqual(['#RiversideBooks', '#AuthorEvents', '#IndependentBookshop']);
    const yoga = readBrief({ topic: 'a first yoga class' });
    expect(briefHashtags(yoga, [], 3)).toEqual(['#FirstYogaClass']);
    const story = readBrief({ topic: "children's story time at Riverside Books" });
    expect(briefHashtags(story, namesIn([story.topic]), 3)).toEqual(['#RiversideBooks', '#ChildrensStoryTime']);
    const dutch = readBrief({ topic: 'baking sourdough bread at home', keyPoints: ['bake in a preheated Dutch oven'] });
    expect(briefHashtags(dutch, namesIn(dutch.keyPoints), 3)).toEqual(['#SourdoughBread']);
    expect(tagWords('#SafeLift')).toBe('Safe Lift');
    expect(tagWords('#HVACMaintenance')).toBe('HVAC Maintenance');
  });

  it('takes a source sentence only when it names a phrase of the topic', () => {
    const refresh = readBrief({ topic: 'refreshing old blog posts' });
    expect(
      aboutTopic(
        'Add recurring entries for refreshing old content, since updating a well-performing article is often faster.',
        refresh,
      ),
    ).toBe(true);
    expect(
      aboutTopic(
        'Link schemes such as private blog networks, mass guest posting on low-quality sites carry lasting risk.',
        refresh,
      ),
    ).toBe(false);
    const hvac = readBrief({
      topic: 'preventive HVAC maintenance contracts for office buildings',
      keyPoints: ['quarterly filter changes cut energy use'],
    });
    expect(
      aboutTopic(
        'Evergreen topics still change over time, and regular maintenance keeps them accurate and competitive.',
        hvac,
      ),
    ).toBe(false);
    const keywords = readBrief({ topic: 'keyword research for a small content team' });
    expect(aboutTopic('Personas help content teams decide what to write.', keywords)).toBe(false);
    expect(aboutTopic('Keyword research is not a one-time project.', keywords)).toBe(true);
  });

  it('lowers a first word only when it cannot be a name', () => {
    expect(lowerFirst('Plan sprints in minutes')).toBe('plan sprints in minutes');
    expect(lowerFirst('Free delivery in town')).toBe('free delivery in town');
    expect(lowerFirst('Slack integration')).toBe('Slack integration');
    // A word other texts on the subject write in lower case is a common word: a topic starting with it is in sentence
    // case. Without that evidence, or with a name's capitals, the topic stays as written.
    expect(lowerFirst('Author evenings at Riverside Books', new Set(['author']))).toBe(
      'author evenings at Riverside Books',
    );
    expect(lowerFirst('Shopify tips for bookshops', new Set(['tips', 'author']))).toBe('Shopify tips for bookshops');
    expect(lowerFirst('Riverside Books events', new Set(['riverside']))).toBe('Riverside Books events');
    expect(lowerFirst('Riverside Books gift cards')).toBe('Riverside Books gift cards');
    expect(lowerFirst('SEO audits')).toBe('SEO audits');
  });
});

describe('writePlatformPost on a topic the sources do not cover', () => {
  it('is the brief, names as written, whole hashtags and a call to action about the topic; coverage says why', async () => {
    const sources = await sourcesFor([BOOKSHOP.topic, ...BOOKSHOP.key_points].join(' '));
    const p = writePlatformPost({
      platform: 'socialnet',
      ...BOOKSHOP,
      tone: 'friendly',
      include_hashtags: true,
      include_cta: true,
      ...PLATFORMS.socialnet,
      sources,
    });
    // No research-corpus sentence about SEO or posting times: none of them is about author events.
    expect(p.sources).toEqual([]);
    expect(p.content).toContain('Riverside Books hosts an author reading every Thursday evening.');
    expect(p.content).toContain("Children's story time runs on Saturday mornings.");
    expect(p.content).not.toMatch(/riverside books|thursday|saturday/);
    expect(p.hashtags).toEqual(['#RiversideBooks', '#AuthorEvents', '#IndependentBookshop']);
    expect(p.call_to_action).toMatch(/author events/);
    for (const s of sentencesOf(p.content)) expect(about(s, BOOKSHOP.topic, ...BOOKSHOP.key_points)).toBe(true);
    expect(p.coverage).toMatchObject({ basis: 'brief', key_points: 3, key_points_used: 3, sources_used: 0 });
  });

  it('on a 280-character platform gives up the opening line before a key point', async () => {
    const p = writePlatformPost({
      platform: 'microblog',
      topic: 'automating invoice reminders for freelancers',
      key_points: [
        'send the first reminder three days before the due date',
        'keep the tone polite and specific',
        'stop reminders as soon as the invoice is paid',
      ],
      tone: 'neutral',
      include_hashtags: true,
      include_cta: true,
      ...PLATFORMS.microblog,
      sources: await sourcesFor('invoice reminders'),
    });
    expect([...p.content].length).toBeLessThanOrEqual(280);
    expect(p.coverage.key_points_used).toBe(3);
    expect(p.call_to_action).not.toBeNull();
    expect(p.hashtags.length).toBeGreaterThan(0);
  });

  it('quotes a source about the topic, named once after its sentences', async () => {
    const sources = await sourcesFor('local SEO for independent restaurants');
    const p = writePlatformPost({
      platform: 'profnet',
      topic: 'local SEO for independent restaurants',
      audience: 'restaurant owners',
      content_type: 'post',
      include_hashtags: true,
      include_cta: true,
      ...PLATFORMS.profnet,
      sources,
    });
    expect(p.sources.length).toBeGreaterThan(0);
    for (const s of p.sources) expect(p.content.split(`(${s.title})`).length).toBe(2);
    expect(p.content).not.toMatch(/Sources: http/);
  });
});

describe('the writers (local) on a topic the sources do not cover', () => {
  it.each(['profnet', 'socialnet'] as const)(
    '%s post: every sentence is about the topic, nothing padded',
    async (platform) => {
      const body = { topic: BOOKSHOP.topic, audience: 'local readers and families', tone: 'friendly' };
      const { brief } = buildJob(writerRequest(platform, 'post', body), emptyPreferences());
      const sources = await sourcesFor(brief.topic, 5);
      const piece = finishDraft(brief, writeSocial({ brief, sources }), sources);
      expect(piece.text).not.toMatch(/What has worked for you|Tell us in the comments|search engines|backlink/i);
      for (const s of sentencesOf(piece.text)) expect(about(s, BOOKSHOP.topic)).toBe(true);
      expect(piece.content.hashtags).toEqual(['#AuthorEvents', '#IndependentBookshop']);
    },
  );
});

describe("the topic in the middle of a sentence keeps the client's names and drops a sentence-initial capital", () => {
  it('hooks, questions and calls to action of a sentence-case topic (the sources write "author" in lower case)', async () => {
    const topic = 'Author evenings at Riverside Books';
    const sources: Source[] = [
      {
        index: 1,
        title: 'Running events',
        url: 'https://example.com/events',
        excerpt: 'An author reading fills a shop on a quiet Thursday evening.',
      } as Source,
    ];
    for (const [platform, kind, extra] of [
      ['socialnet', 'post', { engagement_hooks: { include_question: true }, include_cta: true }],
      ['profnet', 'post', {}],
      ['socialnet', 'carousel', { slides: 3 }],
      ['socialnet', 'group_post', { value_proposition: 'Signed copies at every reading' }],
    ] as const) {
      const { brief } = buildJob(writerRequest(platform, kind, { topic, ...extra }), emptyPreferences());
      const text = JSON.stringify(writeSocial({ brief, sources }));
      expect([platform, kind, /(?<![.!?"]\s?)\bAuthor evenings\b/.test(text.replace(/"title":"[^"]*"/g, ''))]).toEqual([
        platform,
        kind,
        false,
      ]);
      expect(text).toContain('Riverside Books');
      expect(text).toMatch(/author evenings/);
    }
  });
});

describe('short copy', () => {
  it('closes with a question about the topic, not a generic one', () => {
    const c = writeShortCopy({
      form: 'social_post',
      topic: 'author events at Riverside Books',
      keyPoints: ['readings every Thursday evening'],
      maxChars: 280,
    });
    expect(c.text).toContain('Readings every Thursday evening.');
    expect(c.text).toMatch(/ author events\?$/);
    expect(c.text).not.toMatch(/What has worked for you/);
  });
});
