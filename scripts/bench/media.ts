/**
 * npm run bench:media — time to render a 5-minute 1080p slideshow with
 * narration through the platform, beside ffmpeg alone encoding the same
 * prepared inputs with the same settings, in the same run.
 *
 *   platform      the real render workflow on the running Temporal server, with an in-process worker:
 *                 offline plan (5 min, 16:9, 20 scenes) → per scene: espeak-ng speech per sentence, ffprobe
 *                 measurements, soundtrack, scene still (a designed card on the image studio's offline picture,
 *                 dithered), H.264 segment + Ken Burns (+ burned captions) → join, two-pass loudnorm, AAC, faststart
 *                 (+ a mov_text track with BENCH_MEDIA_SUBTITLES=mux) → stored, events recorded.
 *   ffmpeg alone  the same stills, narration soundtrack and subtitles, prepared beforehand (not timed), encoded
 *                 by ffmpeg directly: loudnorm pass 1, then ONE ffmpeg run with the same zoompan filters, the
 *                 same captions burned in with libass (the whole timeline's ASS), x264 preset and CRF, AAC with
 *                 the pass-2 loudnorm, faststart (mux: a mov_text track instead of burning).
 *
 * Goal: platform ≤ 1.3 × ffmpeg alone. Settings: BENCH_MEDIA_SECONDS (300), BENCH_MEDIA_RESOLUTION (1080p),
 * BENCH_MEDIA_PRESET (veryfast), BENCH_MEDIA_ROUNDS (2; the order of the two alternates between rounds),
 * BENCH_MEDIA_SUBTITLES (burn; or mux).
 * Reported per round and as medians: wall time and CPU time (this process and its children), and their ratios.
 * A private schema, task queue and scratch folder keep the platform beside it untouched.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { loadConfig } from '../../infra/config';
import { createLogger } from '../../infra/logger';
import { connectTemporal } from '../../infra/temporal';
import { createEventStore } from '../../infra/eventstore';
import { PostgresUsageMeter } from '../../infra/quota/meter';
import { gatewayMeter } from '../../infra/quota/gateway-meter';
import { createAiGateway, createLocalProvider } from '../../infra/ai';
import { mediaMeter } from '../../infra/media/meter';
import { DEFAULT_TOOLS, MediaTools } from '../../infra/media/tools';
import {
  concatCopy,
  filterPath,
  h264Args,
  loudnormFilter,
  measureForLoudnorm,
  stillFilter,
} from '../../infra/media/ffmpeg';
import { runTool } from '../../infra/media/process';
import { probe } from '../../infra/media/probe';
import { soundtrack, speak, writeSubtitles } from '../../infra/media/engine';
import { Cue, shiftCues, toAss } from '../../domain/media/subtitles';
import { renderSceneStill } from '../../infra/media/visuals';
import { createEspeakSynthesizer } from '../../infra/tts/espeak';
import { createLocalDirStorage } from '../../infra/storage/local-dir';
import { narrationSentences } from '../../domain/media/narration';
import { planInput, scenesFromDraft, buildScenes } from '../../domain/video/plan';
import { localVideoPlan } from '../../domain/video/local-planner';
import { renderJob, RenderJob } from '../../domain/video/render';
import type { SceneMotion, VideoPlan } from '../../domain/video/types';
import { videoRenderWorkflow } from '../../workflows';
import { benchSchema } from './lib';

const SECONDS = Number(process.env.BENCH_MEDIA_SECONDS ?? 300);
const RESOLUTION = (process.env.BENCH_MEDIA_RESOLUTION ?? '1080p') as '1080p';
const PRESET = process.env.BENCH_MEDIA_PRESET ?? 'veryfast';
const ROUNDS = Number(process.env.BENCH_MEDIA_ROUNDS ?? 2);
const SUBTITLES = (process.env.BENCH_MEDIA_SUBTITLES ?? 'burn') as 'burn' | 'mux';

const secs = (ms: number) => Number((ms / 1000).toFixed(1));

/**
 * CPU seconds used so far by this process (all its threads: Node, libvips, the Temporal core) and by its finished
 * children (ffmpeg, ffprobe, espeak-ng), from /proc/self/stat. The machine is shared: CPU time does not depend on
 * what else runs, wall time does. The Temporal server and PostgreSQL are other processes and are not counted.
 */
function cpuSeconds(): number {
  const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  // Fields 14-17 of stat (utime, stime, cutime, cstime) are 12-15 here, after the two fields before ')'.
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100;
}

/** The inputs ffmpeg alone starts from: one background per scene, the narration soundtrack, the subtitles. */
async function prepareInputs(tools: MediaTools, job: RenderJob, dir: string) {
  const engine = { tools, speech: { local: createEspeakSynthesizer() } };
  const parts: { image: string; sound: string; frames: number; motion: SceneMotion }[] = [];
  const cues: Cue[] = [];
  let t = 0;
  for (const s of job.scenes) {
    const d = path.join(dir, `scene-${s.index}`);
    mkdirSync(d, { recursive: true });
    const spoken = await speak(engine, {
      sentences: narrationSentences(s.narration),
      voice: s.voice,
      provider: 'local',
      dir: d,
    });
    const sound = await soundtrack(engine, {
      sentences: spoken.sentences,
      plannedSeconds: s.frames / job.fps,
      fps: job.fps,
      out: path.join(d, 'sound.wav'),
    });
    const image = path.join(d, 'background.png');
    await renderSceneStill({
      visual: s.visual,
      description: s.visual_description,
      heading: s.heading,
      narration: s.narration,
      width: job.width,
      height: job.height,
      out: image,
    });
    parts.push({ image, sound: sound.file, frames: sound.frames, motion: s.visual.motion });
    cues.push(...shiftCues(sound.cues, t));
    t += sound.seconds;
  }
  const audio = path.join(dir, 'narration.wav');
  await concatCopy(
    tools,
    parts.map((p) => p.sound),
    path.join(dir, 'sounds.txt'),
    audio,
  );
  const subs = await writeSubtitles(cues, path.join(dir, 'subtitles'));
  const ass = path.join(dir, 'captions.ass');
  writeFileSync(ass, toAss(cues, job.width, job.height));
  return { parts, audio, srt: subs.srt, ass };
}

/** ffmpeg alone: loudnorm pass 1, then one encode of everything with the platform's settings. */
async function ffmpegAlone(
  tools: MediaTools,
  job: RenderJob,
  inputs: Awaited<ReturnType<typeof prepareInputs>>,
  out: string,
) {
  const t0 = performance.now();
  const measure = await measureForLoudnorm(tools, inputs.audio);
  const n = inputs.parts.length;
  const chains = inputs.parts.map(
    (p, i) =>
      `[${i}:v]${stillFilter({ width: job.width, height: job.height, fps: job.fps, frames: p.frames, motion: p.motion })}[v${i}]`,
  );
  const burn = SUBTITLES === 'burn' ? `,subtitles=filename='${filterPath(inputs.ass)}'` : '';
  const graph = `${chains.join(';')};${inputs.parts.map((_p, i) => `[v${i}]`).join('')}concat=n=${n}:v=1:a=0${burn}[v];[${n}:a]${loudnormFilter(measure)}[a]`;
  const track = SUBTITLES === 'mux' ? ['-i', inputs.srt] : [];
  const trackOut = SUBTITLES === 'mux' ? ['-map', `${n + 1}:s`, '-c:s', 'mov_text'] : [];
  await runTool(tools.ffmpeg, [
    '-hide_banner',
    '-nostdin',
    '-y',
    '-loglevel',
    'error',
    ...inputs.parts.flatMap((p) => ['-i', p.image]),
    '-i',
    inputs.audio,
    ...track,
    '-filter_complex',
    graph,
    '-map',
    '[v]',
    '-map',
    '[a]',
    ...trackOut,
    ...h264Args(tools, job.fps),
    '-c:a',
    'aac',
    '-b:a',
    '160k',
    '-ar',
    '48000',
    '-movflags',
    '+faststart',
    out,
  ]);
  return performance.now() - t0;
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const config = loadConfig();
  const logger = createLogger('bench', 'warn');
  const schema = await benchSchema();
  const root = mkdtempSync(path.join(tmpdir(), 'bench-media-'));
  const tools: MediaTools = {
    ...DEFAULT_TOOLS,
    ffmpeg: config.FFMPEG_PATH,
    ffprobe: config.FFPROBE_PATH,
    x264Preset: PRESET,
  };
  const store = createEventStore(schema.db);
  const meter = new PostgresUsageMeter(schema.db, store, async () => ({}));
  const storage = createLocalDirStorage(path.join(root, 'storage'));
  const workDir = path.join(root, 'work');
  const media = {
    store,
    engine: { tools, speech: { local: createEspeakSynthesizer(config.ESPEAK_PATH) } },
    storage,
    workDir,
    meter: mediaMeter(meter),
  };
  const gateway = createAiGateway({ local: createLocalProvider(), meter: gatewayMeter(meter) });
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../../workflows'),
    logger: new DefaultLogger('WARN'),
  });
  const taskQueue = `bench-media-${randomUUID().slice(0, 8)}`;
  const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  const worker = await Worker.create({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue,
    workflowBundle: { code },
    activities: createActivities({
      logger,
      tasks: { store },
      video: { store, gateway, storage, workDir, meter: media.meter },
      videoRender: media,
    }),
  });
  const running = worker.run();
  const temporal = await connectTemporal({ address: config.TEMPORAL_ADDRESS, namespace: config.TEMPORAL_NAMESPACE });
  const out: Record<string, unknown> = {
    seconds: SECONDS,
    resolution: RESOLUTION,
    preset: PRESET,
    rounds: ROUNDS,
    subtitles: SUBTITLES,
  };
  try {
    // The plan: the offline planner's 5-minute standard video.
    const input = planInput({
      topic: 'building a weekly content calendar',
      format: 'standard',
      duration_seconds: SECONDS,
      key_points: ['Pick three themes', 'Batch the writing', 'Schedule before Monday', 'Review what worked'],
    });
    const planId = randomUUID();
    const plan: VideoPlan = {
      plan_id: planId,
      user_id: 'bench',
      title: 'Bench',
      topic: input.topic,
      format: 'standard',
      aspect_ratio: '16:9',
      target_duration_seconds: SECONDS,
      key_points: input.key_points,
      scenes: scenesFromDraft(localVideoPlan(input), input),
      provider: 'local',
      model: 'local',
    };
    const job = renderJob(
      plan,
      buildScenes(
        planId,
        plan.scenes,
        plan.scenes.map(() => randomUUID()),
      ),
      { plan_id: planId, resolution: RESOLUTION, subtitles: SUBTITLES },
    );
    out.scenes = job.scenes.length;
    const t0 = performance.now();
    const inputs = await prepareInputs(tools, job, path.join(root, 'inputs'));
    out.input_preparation_s = secs(performance.now() - t0);

    const platform: number[] = [];
    const alone: number[] = [];
    const platformCpus: number[] = [];
    const aloneCpus: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const aloneOut = path.join(root, `alone-${r}.mp4`);
      let aloneCpu = 0;
      const runAlone = async () => {
        const c0 = cpuSeconds();
        alone.push(await ffmpegAlone(tools, job, inputs, aloneOut));
        aloneCpu = cpuSeconds() - c0;
      };
      let platformCpu = 0;
      const runPlatform = async () => {
        const taskId = `video-render-${randomUUID()}`;
        const s = performance.now();
        const c1 = cpuSeconds();
        const res = await temporal.client.workflow.execute(videoRenderWorkflow, {
          taskQueue,
          workflowId: taskId,
          args: [{ taskId, userId: 'bench', request: job }],
        });
        platform.push(performance.now() - s);
        platformCpu = cpuSeconds() - c1;
        return res;
      };
      // The machine's load drifts: odd rounds run ffmpeg alone first, even rounds the platform first.
      let result: Awaited<ReturnType<typeof runPlatform>>;
      if (r % 2 === 0) {
        await runAlone();
        result = await runPlatform();
      } else {
        result = await runPlatform();
        await runAlone();
      }
      platformCpus.push(platformCpu);
      aloneCpus.push(aloneCpu);
      const pa = await probe(tools, aloneOut);
      out[`round_${r + 1}`] = {
        first: r % 2 === 0 ? 'ffmpeg_alone' : 'platform',
        platform_s: secs(platform[r]),
        ffmpeg_alone_s: secs(alone[r]),
        ratio: Number((platform[r] / alone[r]).toFixed(3)),
        platform_cpu_s: Number(platformCpu.toFixed(1)),
        ffmpeg_alone_cpu_s: Number(aloneCpu.toFixed(1)),
        cpu_ratio: Number((platformCpu / aloneCpu).toFixed(3)),
        platform_duration_s: result.duration_seconds,
        ffmpeg_alone_duration_s: Number(pa.duration.toFixed(3)),
        platform_mb: Number((statSync(path.join(root, 'storage', 'videos', result.filename)).size / 1e6).toFixed(1)),
        ffmpeg_alone_mb: Number((pa.size / 1e6).toFixed(1)),
      };
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    out.platform_s = secs(median(platform));
    out.ffmpeg_alone_s = secs(median(alone));
    out.ratio = Number((median(platform) / median(alone)).toFixed(3));
    out.cpu_ratio = Number((median(platformCpus) / median(aloneCpus)).toFixed(3));
    out.goal = 'ratio <= 1.3';
    out.load_average = (await import('node:os')).loadavg().map((x) => Number(x.toFixed(1)));
  } finally {
    worker.shutdown();
    await running;
    await connection.close();
    await temporal.connection.close();
    await schema.drop();
    rmSync(root, { recursive: true, force: true });
  }
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}

main().then(
  () => process.exit(0),
  (e) => {
    process.stderr.write(`${e.stack ?? e}\n`);
    process.exit(1);
  },
);
