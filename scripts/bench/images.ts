/**
 * `npm run bench:images`: the image studio's social optimisation of a
 * 12-megapixel JPEG to every format of three platforms (profnet, photonet,
 * microblog: 20 outputs), in images per second, beside the same operations in
 * Pillow (bench/pillow_social.py, run in the same benchmark from a
 * project-local venv, .tools/bench-venv, that this script creates and fills
 * from PyPI). Both sides: centre crop, Lanczos resize to the exact size,
 * JPEG quality 88 lowered until the format's size limit holds.
 *
 * sharp is measured as the API runs it (POST /social/optimize: 4 formats at a
 * time, one libvips thread each: sharp's default on glibc Linux) and one format at
 * a time; Pillow one at a time in one Python process (its usual use). Also
 * shown: sharp with the `smart` (attention) crop, the API's default. The runs
 * are interleaved round by round and medians reported, so a busy shared
 * machine slows every run alike.
 *
 * BENCH_IMAGES_ROUNDS (default 5) timed rounds after one warm-up round.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { PLATFORM_FORMATS, PlatformFormat } from '../../domain/image/formats';
import { renderSvg } from '../../domain/image/procedural';
import { renderFormat, CropMode } from '../../infra/image/raster';

const root = path.resolve(__dirname, '../..');
const work = path.join(root, '.run', 'bench-images');
const venv = path.join(root, '.tools', 'bench-venv');
const ROUNDS = Number(process.env.BENCH_IMAGES_ROUNDS ?? 5);
const PLATFORMS = ['profnet', 'photonet', 'microblog'] as const;
const FORMATS: PlatformFormat[] = PLATFORMS.flatMap((p) => PLATFORM_FORMATS[p]);
const MB = 1_000_000;

/** A 4000x3000 photo-like JPEG: the offline renderer's scene with fine noise (texture JPEG must keep). */
async function makeInput(file: string): Promise<void> {
  const W = 4000;
  const H = 3000;
  const scene = renderSvg({
    prompt: 'mountains and a city skyline by the ocean at sunset',
    width: W,
    height: H,
    seed: 3,
    quality: 'standard',
    style_preset: 'photographic',
  });
  const base = await sharp(Buffer.from(scene.svg), { limitInputPixels: false }).removeAlpha().raw().toBuffer();
  let x = 12345;
  for (let i = 0; i < base.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    base[i] = Math.max(0, Math.min(255, base[i] + ((x >>> 24) % 25) - 12));
  }
  await sharp(base, { raw: { width: W, height: H, channels: 3 } })
    .jpeg({ quality: 90 })
    .toFile(file);
}

async function sharpOne(input: Buffer, f: PlatformFormat, crop: CropMode): Promise<number> {
  const opts = { crop, showSafeZones: false, limitInputPixels: 40_000_000 };
  return (await renderFormat(input, { width: 4000, height: 3000 }, f, opts, 'jpg', Math.floor(f.max_size_mb * MB)))
    .bytes.length;
}

/** One round: every format once, `parallel` at a time, with libvips using `threads` threads per image; images/s. */
async function sharpRound(input: Buffer, crop: CropMode, parallel: number, threads: number): Promise<number> {
  sharp.concurrency(threads);
  let next = 0;
  const t0 = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < FORMATS.length) await sharpOne(input, FORMATS[next++], crop);
    }),
  );
  return FORMATS.length / (Number(process.hrtime.bigint() - t0) / 1e9);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function python(): string {
  const py = path.join(venv, 'bin', 'python');
  if (!existsSync(py)) {
    console.log(
      `creating ${path.relative(root, venv)} (python3 -m venv) and installing bench/requirements.txt from PyPI`,
    );
    execFileSync('python3', ['-m', 'venv', venv], { stdio: 'inherit' });
  }
  execFileSync(
    py,
    ['-m', 'pip', 'install', '-q', '--disable-pip-version-check', '-r', path.join(root, 'bench', 'requirements.txt')],
    { stdio: 'inherit' },
  );
  return py;
}

async function main(): Promise<void> {
  mkdirSync(work, { recursive: true });
  const file = path.join(work, 'input-12mp.jpg');
  if (!existsSync(file)) await makeInput(file);
  const input = await sharp(file).toBuffer();
  const meta = await sharp(input).metadata();
  const formatsFile = path.join(work, 'formats.json');
  writeFileSync(
    formatsFile,
    JSON.stringify(
      FORMATS.map((f) => ({
        name: f.name,
        width: f.width,
        height: f.height,
        max_bytes: Math.floor(f.max_size_mb * MB),
      })),
    ),
  );
  console.log(
    `input ${meta.width}x${meta.height} JPEG (${(input.length / 1e6).toFixed(1)} MB); ${FORMATS.length} formats of ${PLATFORMS.join(', ')}; ${ROUNDS} rounds; ${os.cpus().length} CPUs; sharp ${sharp.versions.sharp} / libvips ${sharp.versions.vips}`,
  );

  const py = python();
  const pillowRound = () =>
    JSON.parse(
      execFileSync(py, [path.join(root, 'bench', 'pillow_social.py'), file, formatsFile, '1'], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .pop()!,
    ) as { images_per_second: number; pillow: string };
  // Warm-up, then the runs interleaved round by round: on a shared machine every run sees the same load.
  // sharp's default on glibc Linux without jemalloc is 1 libvips thread per image (what the API runs with).
  const defaultThreads = sharp.concurrency();
  const threads = os.cpus().length;
  await sharpRound(input, 'center', 4, 1);
  const runs: Record<string, number[]> = { api: [], seq: [], seqAll: [], smart: [], pillow: [] };
  let version = '';
  for (let r = 0; r < ROUNDS; r++) {
    runs.api.push(await sharpRound(input, 'center', 4, 1));
    const p = pillowRound();
    version = p.pillow;
    runs.pillow.push(p.images_per_second);
    runs.seq.push(await sharpRound(input, 'center', 1, 1));
    runs.seqAll.push(await sharpRound(input, 'center', 1, threads));
    runs.smart.push(await sharpRound(input, 'smart', 4, 1));
  }
  sharp.concurrency(defaultThreads);
  const [sharpApi, sharpSeq, sharpSeqAll, sharpSmart, pillow] = ['api', 'seq', 'seqAll', 'smart', 'pillow'].map((k) =>
    median(runs[k]),
  );
  const rows: [string, number][] = [
    ['sharp, center crop, 4 formats at a time, 1 libvips thread each (as POST /social/optimize runs)', sharpApi],
    ['sharp, center crop, one at a time, 1 libvips thread', sharpSeq],
    [`sharp, center crop, one at a time, ${threads} libvips threads`, sharpSeqAll],
    ['sharp, smart (attention) crop, 4 at a time, 1 thread each', sharpSmart],
    [`Pillow ${version}, center crop, one at a time (JPEG draft + reducing_gap)`, pillow],
  ];
  console.log(
    `\nmedians of ${ROUNDS} interleaved rounds; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log('\n| Run | images/s | × Pillow |\n|---|---|---|');
  for (const [name, ips] of rows) console.log(`| ${name} | ${ips.toFixed(2)} | ${(ips / pillow).toFixed(2)} |`);
  const ratio = sharpApi / pillow;
  console.log(`\nsharp (API) / Pillow = ${ratio.toFixed(2)}x (goal: at least 3x) ${ratio >= 3 ? 'MET' : 'NOT MET'}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
