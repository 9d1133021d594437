/**
 * Regression guard of the writing (docs/quality.md): three briefs of the evaluation — two on subjects the sample
 * corpus does not cover, one on a subject it does — through every text-producing route of the real platform
 * (API, worker, relay and projector as processes) with the `local` provider, each output judged by the
 * evaluation's rules, LanguageTool and the claim checker against the cited sources. The full evaluation over every
 * brief is a benchmark (`npm run eval:content`); this keeps its goals from sliding back.
 */
import { loadBriefs } from '../../../scripts/eval/content';
import { corpusReader, judge, Judged } from '../../../scripts/eval/judge';
import { LanguageTool, startLanguageTool } from '../../../scripts/eval/languagetool';
import { EvalPlatform, startEvalPlatform } from '../../../scripts/eval/platform';
import { createCalendar, ROUTES } from '../../../scripts/eval/routes';
import { BUNDLE_PATH } from '../../support/global-setup';

jest.setTimeout(20 * 60_000);

const BRIEFS = ['bookshop-author-events', 'plumber-winter-pipes', 'content-calendar-small-teams'];

describe('writing a marketer would publish (local provider, three briefs, every route)', () => {
  let platform: EvalPlatform;
  let lt: LanguageTool;
  const judged: Judged[] = [];

  beforeAll(async () => {
    [platform, lt] = await Promise.all([startEvalPlatform('local', { bundlePath: BUNDLE_PATH }), startLanguageTool()]);
    const client = { base: platform.base, key: platform.key, session: platform.session };
    const calendarId = await createCalendar(client);
    const read = corpusReader(platform.base, platform.key);
    for (const brief of loadBriefs(BRIEFS))
      for (const route of ROUTES) {
        const run = await route.run(client, brief, { calendarId, provider: 'local' });
        for (const piece of run.pieces)
          judged.push(await judge({ ...piece, route: route.id, provider: 'local', brief }, lt, read));
      }
  });
  afterAll(async () => {
    await lt?.close();
    await platform?.stop();
  });

  const where = (j: Judged) => `${j.route} × ${j.brief}`;

  test('every route answered every brief', () => {
    expect(judged.length).toBe(BRIEFS.length * ROUTES.length);
  });

  test('on the brief: no sentence twice, key points covered, the call to action when asked, names as written', () => {
    const faults: string[] = [];
    for (const j of judged) {
      if (j.topicality < 0.75)
        faults.push(`${where(j)}: topicality ${j.topicality.toFixed(2)}: ${j.offTopic.join(' | ')}`);
      if (j.duplicates.length) faults.push(`${where(j)}: said twice: ${j.duplicates.join(' | ')}`);
      if (j.keyPointCoverage !== undefined && j.keyPointCoverage < 0.9)
        faults.push(`${where(j)}: key points missed: ${j.missedKeyPoints.join(' | ')}`);
      if (j.cta?.wanted && !j.cta.found) faults.push(`${where(j)}: no call to action`);
      if (j.lowerCasedNames.length) faults.push(`${where(j)}: lower-cased names: ${j.lowerCasedNames.join(', ')}`);
      if (j.hashtagFragments.length) faults.push(`${where(j)}: hashtag fragments: ${j.hashtagFragments.join(' ')}`);
    }
    expect(faults).toEqual([]);
  });

  test('citations: every [n] resolves, one numbering per piece, every cited sentence supported by its source', () => {
    const faults: string[] = [];
    for (const j of judged) {
      if (j.citations.dangling.length) faults.push(`${where(j)}: dangling [${j.citations.dangling.join('], [')}]`);
      if (j.citations.numbering === 'gaps' || j.citations.numbering === 'restarts')
        faults.push(`${where(j)}: numbering ${j.citations.numbering}`);
      for (const s of j.faithfulness.unsupported) faults.push(`${where(j)}: unsupported: ${s}`);
    }
    expect(faults).toEqual([]);
    // The on-corpus brief is written from sources: its blog outputs cite.
    expect(
      judged
        .filter((j) => j.brief === 'content-calendar-small-teams' && j.route.startsWith('blog'))
        .every((j) => j.faithfulness.cited > 0),
    ).toBe(true);
  });

  test('grammar by LanguageTool: at most 1 error per 100 words over all outputs, at most 2 in any one', () => {
    const words = judged.reduce((n, j) => n + j.words, 0);
    const errors = judged.reduce((n, j) => n + j.grammar.errors, 0);
    const worst = judged
      .filter((j) => j.grammar.errors > 2)
      .map((j) => `${where(j)}: ${j.grammar.samples.map((s) => `${s.rule} "${s.covered}"`).join(', ')}`);
    expect(worst).toEqual([]);
    expect((100 * errors) / words).toBeLessThanOrEqual(1);
  });
});
