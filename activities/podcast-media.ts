/**
 * Podcast maker media activities (workflows/podcast.ts), on the media engine
 * (infra/media/engine.ts + episode.ts): one scene's audio, an uploaded audio
 * file, the combined MP3, one scene's video, the combined video, and dubbing.
 * Each works in `MEDIA_WORK_DIR/<task_id>/`, heartbeats while ffmpeg or the
 * speech provider works (cancellation kills the child: infra/media/process.ts),
 * stores its deliverables under `podcast/...` in the media storage, records
 * them once on the project's stream, and removes its scratch folder.
 */
import { createPodcastAudioActivities } from './podcast-media/audio';
import { createPodcastDubActivities } from './podcast-media/dub';
import { PodcastMediaActivityDeps, podcastMediaKit } from './podcast-media/kit';
import { createPodcastVideoActivities } from './podcast-media/video';

/** The activities object, assembled from the steps (audio, video, dubbing) over one shared kit. */
export function createPodcastMediaActivities(deps: PodcastMediaActivityDeps) {
  const kit = podcastMediaKit(deps);
  return {
    ...createPodcastAudioActivities(kit),
    ...createPodcastVideoActivities(kit),
    ...createPodcastDubActivities(kit),
  };
}

export type PodcastMediaActivities = ReturnType<typeof createPodcastMediaActivities>;
