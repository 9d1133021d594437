/**
 * Writer preferences: the decider (replace, merge, null clears, no-op saves
 * append nothing) and how preferences become the defaults of a generation.
 */
import { fold } from '../../../domain/decider';
import type { DomainEvent } from '../../../domain/events';
import { buildJob } from '../../../domain/writers/briefs';
import {
  emptyPreferences,
  preferencesDecider,
  PreferencesCommand,
  WriterPreferences,
} from '../../../domain/writers/preferences';
import { ValidationError } from '../../../domain/errors';

const user = 'u-1';
function run(events: DomainEvent[], c: Omit<PreferencesCommand, 'user_id'>): DomainEvent[] {
  return preferencesDecider.decide({ ...c, user_id: user }, fold(preferencesDecider, events));
}

describe('preferences decider', () => {
  it('replace stores exactly what is given; merge changes only given fields; null clears', () => {
    const first = run([], {
      kind: 'replace',
      preferences: {
        content_defaults: { tone: 'witty', include_hashtags: false },
        brand_settings: { colors: ['#112233'] },
      },
    });
    expect(first).toHaveLength(1);
    const saved = first[0] as Extract<DomainEvent, { type: 'WriterPreferencesSaved' }>;
    expect(saved.data.preferences).toEqual({
      content_defaults: { tone: 'witty', include_hashtags: false },
      multimedia_defaults: {},
      brand_settings: { colors: ['#112233'] },
    });
    expect(saved.data.changed).toEqual([
      'content_defaults.include_hashtags',
      'content_defaults.tone',
      'brand_settings.colors',
    ]);

    const merged = run(first, {
      kind: 'merge',
      preferences: {
        content_defaults: { industry: 'fintech', include_hashtags: null },
        multimedia_defaults: { video_style: 'animated' },
      },
    })[0] as typeof saved;
    expect(merged.data.preferences).toEqual({
      content_defaults: { tone: 'witty', industry: 'fintech' },
      multimedia_defaults: { video_style: 'animated' },
      brand_settings: { colors: ['#112233'] },
    });
    expect(merged.data.mode).toBe('merge');

    const replaced = run([...first, merged], {
      kind: 'replace',
      preferences: { content_defaults: { tone: 'formal' } },
    })[0] as typeof saved;
    expect(replaced.data.preferences).toEqual({ ...emptyPreferences(), content_defaults: { tone: 'formal' } });
    const cleared = run([...first, merged], {
      kind: 'merge',
      preferences: { brand_settings: null },
    })[0] as typeof saved;
    expect(cleared.data.preferences.brand_settings).toEqual({});
  });

  it('a save that changes nothing appends nothing (but the first save always does)', () => {
    const first = run([], { kind: 'replace', preferences: {} });
    expect(first).toHaveLength(1);
    expect(run(first, { kind: 'replace', preferences: {} })).toEqual([]);
    expect(run(first, { kind: 'merge', preferences: { content_defaults: {} } })).toEqual([]);
  });
});

const PREFS: WriterPreferences = {
  content_defaults: { tone: 'playful', industry: 'retail', include_hashtags: false, max_length: 500 },
  multimedia_defaults: {
    video_style: 'whiteboard animation',
    voice_preference: 'warm female',
    background_music: 'lo-fi',
  },
  brand_settings: { colors: ['#ff6600'], brand_voice: 'plain-spoken', logo_url: 'https://example.com/logo.png' },
};

describe('preferences as generation defaults', () => {
  it('fill what the request leaves out, and list where each value came from', () => {
    const { brief, defaultsApplied } = buildJob(
      { platform: 'profnet', kind: 'post', body: { topic: 'Loyalty programmes' } },
      PREFS,
    );
    expect(brief).toMatchObject({ tone: 'playful', industry: 'retail', includeHashtags: false, maxCharacters: 500 });
    expect(defaultsApplied).toEqual(
      expect.arrayContaining([
        { field: 'tone', from: 'content_defaults.tone', value: 'playful' },
        { field: 'industry', from: 'content_defaults.industry', value: 'retail' },
        { field: 'include_hashtags', from: 'content_defaults.include_hashtags', value: false },
        { field: 'max_length', from: 'content_defaults.max_length', value: 500 },
        { field: 'brand_voice', from: 'brand_settings.brand_voice', value: 'plain-spoken' },
      ]),
    );
  });

  it('never override what the request gives', () => {
    const { brief, defaultsApplied } = buildJob(
      {
        platform: 'profnet',
        kind: 'post',
        body: { topic: 'Loyalty programmes', tone: 'formal', include_hashtags: true, max_length: 2000 },
      },
      PREFS,
    );
    expect(brief).toMatchObject({ tone: 'formal', includeHashtags: true, maxCharacters: 2000 });
    expect(defaultsApplied.map((d) => d.field)).not.toContain('tone');
  });

  it('apply multimedia defaults to video posts and nothing without preferences', () => {
    const { brief } = buildJob(
      { platform: 'profnet', kind: 'video_post', body: { topic: 'Store tours', duration: '30_seconds' } },
      PREFS,
    );
    expect(brief).toMatchObject({
      style: 'whiteboard animation',
      voice: { type: 'warm female' },
      backgroundMusic: 'lo-fi',
      durationSeconds: 30,
    });
    const bare = buildJob(
      { platform: 'profnet', kind: 'video_post', body: { topic: 'Store tours' } },
      emptyPreferences(),
    );
    expect(bare.defaultsApplied).toEqual([]);
    expect(bare.brief).toMatchObject({ tone: 'professional', durationSeconds: 60, style: 'talking head with b-roll' });
  });

  it('refuses durations outside the format, naming the field (batch items by index)', () => {
    expect(() =>
      buildJob(
        { platform: 'socialnet', kind: 'reel', body: { topic: 'x', duration: '120_seconds' } },
        emptyPreferences(),
      ),
    ).toThrow(ValidationError);
    try {
      buildJob(
        { platform: 'socialnet', kind: 'reel', body: { topic: 'x', duration: '91_seconds' } },
        emptyPreferences(),
        'requests.3',
      );
    } catch (e) {
      expect((e as ValidationError).field).toBe('requests.3.duration');
    }
  });
});
