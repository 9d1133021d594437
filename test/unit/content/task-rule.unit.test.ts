/** The wait bound of the "answer now or a task to poll" rule (api/kernel/tasks.ts): Prefer can only lower it. */
import { waitBoundMs } from '../../../api/kernel/tasks';

describe('waitBoundMs', () => {
  it('uses the configured bound without a Prefer header', () => {
    expect(waitBoundMs(undefined, 20000)).toEqual({ ms: 20000 });
    expect(waitBoundMs('handling=lenient', 20000)).toEqual({ ms: 20000 });
  });
  it('answers at once for respond-async', () => {
    expect(waitBoundMs('respond-async, wait=10', 20000)).toEqual({ ms: 0, applied: 'respond-async' });
  });
  it('lowers the bound to wait=n seconds, never raises it', () => {
    expect(waitBoundMs('wait=5', 20000)).toEqual({ ms: 5000, applied: 'wait=5' });
    expect(waitBoundMs('Wait = 100', 20000)).toEqual({ ms: 20000, applied: 'wait=20' });
  });
});
