/**
 * The podcast media steps' scratch folders: each run of a step works in a folder of its own, so an attempt that timed
 * out and is still ending cannot remove the files of its retry (seen under load: a dub's sentence WAV removed before
 * ffprobe read it, and the task failed), and the task's folder is gone once its last run ends.
 */
import { MockActivityEnvironment } from '@temporalio/testing';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { podcastMediaKit, PodcastMediaActivityDeps } from '../../../activities/podcast-media/kit';

describe('podcast media scratch folders', () => {
  const workDir = mkdtempSync(path.join(tmpdir(), 'scratch-'));
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));
  const kit = podcastMediaKit({ workDir } as PodcastMediaActivityDeps);
  const inActivity = <T>(attempt: number, fn: () => Promise<T>) =>
    new MockActivityEnvironment({ activityId: '3', attempt }).run(fn);

  it("an attempt ending while its retry works leaves the retry's files; the task's folder goes with the last run", async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let retryFile = '';
    const retry = inActivity(2, () =>
      kit.inScratch('task-1', async (dir) => {
        retryFile = path.join(dir, 'sentence-000.wav');
        writeFileSync(retryFile, 'RIFF');
        await held;
        return existsSync(retryFile);
      }),
    );
    // The timed-out first attempt ends (its clean-up runs) while the retry is mid-work.
    await inActivity(1, () => kit.inScratch('task-1', async (dir) => writeFileSync(path.join(dir, 'x.wav'), 'RIFF')));
    expect(existsSync(retryFile)).toBe(true);
    release();
    expect(await retry).toBe(true);
    expect(readdirSync(workDir)).toEqual([]);
  });
});
