/** Content records and personas as pure decisions; the canonical body of Idempotency-Key. */
import { fold } from '../../../domain/decider';
import type { DomainEvent } from '../../../domain/events';
import { contentDecider } from '../../../domain/content/record';
import { personaDecider } from '../../../domain/content/persona';
import { canonicalJson } from '../../../api/kernel/idempotency';

const created: DomainEvent = {
  type: 'ContentCreated',
  data: {
    content_id: 'c1',
    user_id: 'u1',
    type: 'blog_post',
    topic: 't',
    title: 'T',
    content: 'v1',
    metadata: { word_count: 1 },
    origin_task_id: 'task',
  },
};

describe('content record decider', () => {
  const s1 = fold(contentDecider, [created]);
  it('revises into a new version with the whole text and the changed fields', () => {
    const [e] = contentDecider.decide(
      { kind: 'revise', user_id: 'u1', content: 'v2', metadata: { word_count: 1 } },
      s1,
    );
    expect(e).toEqual({
      type: 'ContentRevised',
      data: {
        content_id: 'c1',
        user_id: 'u1',
        version: 2,
        title: 'T',
        content: 'v2',
        metadata: { word_count: 1 },
        changed: ['content'],
      },
    });
    expect(fold(contentDecider, [created, e])!.version).toBe(2);
  });
  it('does nothing when nothing changes; refuses a stale expected_version', () => {
    expect(contentDecider.decide({ kind: 'revise', user_id: 'u1', title: 'T' }, s1)).toEqual([]);
    expect(() =>
      contentDecider.decide({ kind: 'revise', user_id: 'u1', content: 'x', expected_version: 2 }, s1),
    ).toThrow(expect.objectContaining({ kind: 'conflict' }));
  });
  it("treats another user's, deleted and unknown records as not found", () => {
    expect(() => contentDecider.decide({ kind: 'delete', user_id: 'u2' }, s1)).toThrow(
      expect.objectContaining({ kind: 'not_found' }),
    );
    const del = contentDecider.decide({ kind: 'delete', user_id: 'u1' }, s1);
    const gone = fold(contentDecider, [created, ...del]);
    expect(() => contentDecider.decide({ kind: 'revise', user_id: 'u1', content: 'x' }, gone)).toThrow(
      expect.objectContaining({ kind: 'not_found' }),
    );
    expect(() => contentDecider.decide({ kind: 'delete', user_id: 'u1' }, undefined)).toThrow(
      expect.objectContaining({ kind: 'not_found' }),
    );
  });
});

describe('persona decider', () => {
  it('creates, updates only what changes (null clears), and deletes', () => {
    const c = personaDecider.decide(
      { kind: 'create', persona_id: 'p1', user_id: 'u1', persona: { name: 'A', tone: 'x' } },
      undefined,
    );
    const s = fold(personaDecider, c);
    const u = personaDecider.decide(
      { kind: 'update', user_id: 'u1', changes: { name: 'A', tone: null, goals: ['g'] } },
      s,
    );
    expect(u).toEqual([
      { type: 'PersonaUpdated', data: { persona_id: 'p1', user_id: 'u1', changes: { tone: null, goals: ['g'] } } },
    ]);
    expect(fold(personaDecider, [...c, ...u])!.persona).toEqual({ name: 'A', goals: ['g'] });
    expect(personaDecider.decide({ kind: 'update', user_id: 'u1', changes: { name: 'A' } }, s)).toEqual([]);
    expect(() => personaDecider.decide({ kind: 'update', user_id: 'u2', changes: { name: 'B' } }, s)).toThrow(
      expect.objectContaining({ kind: 'not_found' }),
    );
  });
});

describe('canonicalJson', () => {
  it('ignores key order, keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe(canonicalJson({ a: { c: null, d: [2, 1] }, b: 1 }));
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
  });
});
