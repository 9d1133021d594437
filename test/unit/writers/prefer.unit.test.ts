/** RFC 7240 Prefer handling of the writers' generation routes: respond-async, wait=<s> (capped), the default wait. */
import { DEFAULT_WAIT_SECONDS, MAX_WAIT_SECONDS, preferredWait } from '../../../api/writers/tasks';

describe('preferredWait', () => {
  it.each([
    [undefined, DEFAULT_WAIT_SECONDS * 1000, undefined],
    ['', DEFAULT_WAIT_SECONDS * 1000, undefined],
    ['respond-async', 0, 'respond-async'],
    ['Respond-Async, wait=10', 0, 'respond-async'],
    ['wait=5', 5000, 'wait=5'],
    ['handling=lenient; wait = 7', 7000, 'wait=7'],
    ['wait=3600', MAX_WAIT_SECONDS * 1000, `wait=${MAX_WAIT_SECONDS}`],
    ['wait=abc', DEFAULT_WAIT_SECONDS * 1000, undefined],
    ['return=minimal', DEFAULT_WAIT_SECONDS * 1000, undefined],
  ])('Prefer: %p → %p ms (applied %p)', (header, ms, applied) => {
    expect(preferredWait(header)).toEqual({ ms, ...(applied ? { applied } : {}) });
  });
});
