import { namesIn } from '../../../domain/generation/compose';
import { descriptionItems, planPart, writeSocialPost, SocialPostInput } from '../../../domain/generation/calendar-post';
import { contentKeys } from '../../../domain/analysis/word-forms';

const seriesTitle = 'Author events at an independent bookshop';
const points = [
  'Riverside Books hosts an author reading every Thursday evening',
  "children's story time runs on Saturday mornings",
  'seats are free but limited, so booking ahead matters',
];
/** The posts of a series as the series route asks for them: the description inside the topic. */
const series = (n: number, extra: Partial<SocialPostInput> = {}) =>
  Array.from({ length: n }, (_, i) =>
    writeSocialPost({
      topic: `${seriesTitle}: ${points.join('; ')}`,
      content_type: 'social_post',
      platform: 'socialnet',
      tone: 'friendly',
      audience: 'local readers and families',
      part: { index: i, total: n, series_title: seriesTitle },
      ...extra,
    }),
  );
const sentencesOf = (posts: Array<{ thread_content: string[] }>) =>
  posts.flatMap((p) => p.thread_content.join(' ').split(/(?<=[.!?])\s+/));

describe('calendar posts of the offline writer', () => {
  it('a series: every post says something of its own, the description never echoed whole, names kept', () => {
    const posts = series(5);
    const text = posts.map((p) => p.thread_content.join('\n'));
    // An introduction, one point a post, a recap.
    expect(text).toEqual([
      'Author events at an independent bookshop: a five-part series for local readers and families.',
      'Riverside Books hosts an author reading every Thursday evening.',
      "Children's story time runs on Saturday mornings.",
      'Seats are free but limited, so booking ahead matters.',
      "Author events at an independent bookshop, in short: Riverside Books hosts an author reading every Thursday evening; children's story time runs on Saturday mornings; and seats are free but limited, so booking ahead matters.",
    ]);
    const sentences = sentencesOf(posts);
    expect(new Set(sentences).size).toBe(sentences.length);
    expect(text.join('\n')).not.toMatch(/riverside books|thursday|saturday/);
    expect(posts.map((p) => p.title)).toEqual([
      'Author events at an independent bookshop (1/5): Introduction',
      'Author events at an independent bookshop (2/5): Riverside Books hosts an author reading every Thursday evening',
      "Author events at an independent bookshop (3/5): Children's story time runs on Saturday mornings",
      'Author events at an independent bookshop (4/5): Seats are free but limited, so booking ahead matters',
      'Author events at an independent bookshop (5/5): Recap',
    ]);
    // Hashtags from whole phrases: the name, the topic's noun phrases; no day, no fragment.
    expect(posts[1].hashtags).toEqual(['#RiversideBooks', '#AuthorEvents', '#IndependentBookshop']);
    expect(posts.every((p) => p.coverage!.key_points === 3)).toBe(true);
  });

  it('fewer posts than points: each post carries its share; one post per point when they match', () => {
    expect(series(3).map((p) => p.thread_content.join(' '))).toEqual([
      'Riverside Books hosts an author reading every Thursday evening.',
      "Children's story time runs on Saturday mornings.",
      'Seats are free but limited, so booking ahead matters.',
    ]);
    const two = series(2).map((p) => p.thread_content.join(' '));
    expect(two[1]).toBe(
      "Children's story time runs on Saturday mornings. Seats are free but limited, so booking ahead matters.",
    );
    // More posts than an introduction, the points and a recap can fill: a point restated under its part number.
    expect(planPart(points, 5, 8)).toEqual({ kind: 'restate', items: [points[1]] });
    const eight = sentencesOf(series(8));
    expect(new Set(eight).size).toBe(eight.length);
  });

  it('calls to action name the topic and differ from part to part', () => {
    const posts = series(5, { include_cta: true, content_type: 'thread' });
    const ctas = posts.map((p) => p.thread_content[p.thread_content.length - 1]);
    expect(new Set(ctas).size).toBe(5);
    for (const c of ctas)
      expect(c).toMatch(/^\d\/\d (Follow|Share|Tell|Save|Send|Subscribe) .*“Author events at an independent bookshop”/);
    expect(posts[0].thread_content[0]).toMatch(/^1\/2 /);
  });

  it('a single post from a topic alone: one sentence naming it, the call to action, nothing padded', () => {
    const p = writeSocialPost({
      topic: 'Email newsletter growth',
      content_type: 'thread',
      platform: 'microblog',
      tone: 'friendly',
      audience: 'creators',
      word_count: 80,
      include_cta: true,
    });
    expect(p.title).toBe('Email Newsletter Growth');
    expect(p.thread_content).toHaveLength(2);
    const keys = new Set(contentKeys('Email newsletter growth'));
    for (const post of p.thread_content) expect(contentKeys(post).some((k) => keys.has(k))).toBe(true);
    expect(p.thread_content.join(' ')).toContain('Email newsletter growth');
    expect(p.hashtags).toEqual(['#EmailNewsletterGrowth']);
    expect(p.coverage?.shortfall).toMatch(/of 80 words/);
    // A topic that is a sentence is said as written; further sentences follow it.
    const q = writeSocialPost({
      topic: 'Riverside Books hosts an author reading every Thursday. Signed copies are available after each reading.',
      content_type: 'social_post',
      platform: 'socialnet',
    });
    expect(q.thread_content).toEqual([
      'Riverside Books hosts an author reading every Thursday. Signed copies are available after each reading.',
    ]);
    expect(q.hashtags[0]).toBe('#RiversideBooks');
    // Same input, same post.
    expect(writeSocialPost({ topic: 'x y', content_type: 'story', platform: 'photonet' })).toEqual(
      writeSocialPost({ topic: 'x y', content_type: 'story', platform: 'photonet' }),
    );
  });

  it('descriptions split on lines, semicolons or sentences; names found at the start of an item', () => {
    expect(descriptionItems('- one thing\n- another thing')).toEqual(['one thing', 'another thing']);
    expect(descriptionItems('a; b c; and d e')).toEqual(['a', 'b c', 'd e']);
    expect(descriptionItems('First point here. Second point there.')).toEqual([
      'First point here',
      'Second point there',
    ]);
    expect(namesIn(['Launch: Riverside Books hosts readings on Thursday'])).toEqual(
      expect.arrayContaining(['Riverside Books', 'Thursday']),
    );
  });
});
