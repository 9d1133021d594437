import { fold } from '../../../domain/decider';
import { ConflictError, NotFoundError } from '../../../domain/errors';
import type { DomainEvent } from '../../../domain/events';
import { podcastDecider, requireApprovedScript } from '../../../domain/podcast/decide';
import type { PodcastScript } from '../../../domain/podcast/types';

const ids = { project_id: 'p1', user_id: 'u1' };
const script = { title: 'T', scenes: [{ scene_id: 'scene-1' }], speakers: [{ id: 'a' }] } as unknown as PodcastScript;
const created: DomainEvent = { type: 'PodcastProjectCreated', data: { ...ids, title: 'T', idea: 'I', state: {} } };
const written = (version: number): DomainEvent => ({
  type: 'PodcastScriptWritten',
  data: { ...ids, script, version, task_id: 't' },
});

describe('podcast project decider', () => {
  const decide = (events: DomainEvent[], c: Parameters<typeof podcastDecider.decide>[0]) =>
    podcastDecider.decide(c, fold(podcastDecider, events));

  it('only the owner acts on a live project', () => {
    expect(() => decide([created], { kind: 'favorite', user_id: 'u2', favorite: true })).toThrow(NotFoundError);
    const deleted: DomainEvent = { type: 'PodcastProjectDeleted', data: ids };
    expect(() => decide([created, deleted], { kind: 'favorite', user_id: 'u1', favorite: true })).toThrow(
      NotFoundError,
    );
    expect(decide([created], { kind: 'favorite', user_id: 'u1', favorite: false })).toEqual([]);
  });

  it('approval needs a script, names the current version, and a new script clears it', () => {
    const now = '2026-01-01T00:00:00.000Z';
    expect(() => decide([created], { kind: 'approve_script', user_id: 'u1', now })).toThrow(ConflictError);
    expect(() => decide([created, written(1)], { kind: 'approve_script', user_id: 'u1', version: 2, now })).toThrow(
      /not the current/,
    );
    const approved = decide([created, written(1)], { kind: 'approve_script', user_id: 'u1', version: 1, now });
    expect(approved).toEqual([{ type: 'PodcastScriptApproved', data: { ...ids, version: 1, approved_at: now } }]);
    const s = fold(podcastDecider, [created, written(1), ...approved]);
    expect(requireApprovedScript(s.project!)).toBe(script);
    const rewritten = fold(podcastDecider, [created, written(1), ...approved, written(2)]);
    expect(() => requireApprovedScript(rewritten.project!)).toThrow(/version 2 is not approved/);
    // An approval of an older version read after a rewrite does not approve the new one.
    const stale = fold(podcastDecider, [created, written(1), written(2), ...approved]);
    expect(stale.project!.script_approved_at).toBeUndefined();
  });

  it('folds notes, assets and client state: everything to resume', () => {
    const s = fold(podcastDecider, [
      created,
      { type: 'PodcastProjectUpdated', data: { ...ids, changes: { state: { step: 3 } } } },
      { type: 'PodcastNotesRecorded', data: { ...ids, field: 'analysis', value: { angle: 'x' }, task_id: 't' } },
      {
        type: 'PodcastAssetRecorded',
        data: { ...ids, asset: { kind: 'avatar', image_key: 'k', operation: 'upload', created_at: 'now' } },
      },
    ]);
    expect(s.project).toMatchObject({
      state: { step: 3 },
      notes: { analysis: { angle: 'x' } },
      assets: [{ kind: 'avatar' }],
    });
  });
});
