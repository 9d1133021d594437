import { etagOf, noneMatch } from '../../../api/kernel/conditional';

describe('conditional answers (ETag / If-None-Match)', () => {
  const tag = etagOf('{"status":"in_progress"}');

  it('makes one weak tag per data text', () => {
    expect(tag).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    expect(etagOf('{"status":"in_progress"}')).toBe(tag);
    expect(etagOf('{"status":"completed"}')).not.toBe(tag);
  });

  it('matches weakly, in a list, and *; nothing else', () => {
    expect(noneMatch(tag, tag)).toBe(true);
    expect(noneMatch(tag.slice(2), tag)).toBe(true); // strong form of the same opaque tag
    expect(noneMatch(`W/"other", ${tag}`, tag)).toBe(true);
    expect(noneMatch('*', tag)).toBe(true);
    expect(noneMatch(undefined, tag)).toBe(false);
    expect(noneMatch('W/"other"', tag)).toBe(false);
    expect(noneMatch('', tag)).toBe(false);
  });
});
