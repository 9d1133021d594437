/**
 * Burned captions judged by a tool nobody here wrote: frames of real renders (renderStill with the ASS of toAss,
 * as the video studio and the podcast maker burn them) are extracted with ffmpeg at every cue's middle and read
 * with Tesseract OCR (Debian's tesseract-ocr; scripts/test installs it). For 9:16, 16:9 and 1:1 at 480p and 1080p:
 * every caption is read whole, on at most two lines, inside the frame's title-safe area, and no caption pixel
 * touches an edge (nothing clipped). A cue split mid-phrase or a caption that overflows the frame fails here.
 * The scenes' designed cards are read the same way at both ends of the Ken Burns zoom, and an enlarged gradient is
 * checked for bands.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { captionChars, cuesFromSentences, toAss } from '../../../domain/media/subtitles';
import { renderStill } from '../../../infra/media/ffmpeg';
import { runTool } from '../../../infra/media/process';
import { DEFAULT_TOOLS } from '../../../infra/media/tools';
import { renderBackground, renderSceneStill } from '../../../infra/media/visuals';

jest.setTimeout(300_000);
const run = promisify(execFile);
const tools = { ...DEFAULT_TOOLS, x264Preset: 'ultrafast' };
const FPS = 10;

// Narration as a marketer would write it: a long sentence with a clause, a short one, one with a list.
const SENTENCES = [
  'Independent bookshops can host a monthly author night in the back room, and readers who come once tend to come back with friends.',
  'Keep the evening short.',
  'Ask the author to read for ten minutes, then open the floor for questions from the audience.',
];

const FRAMES: Array<[string, number, number]> = [
  ['9:16 480p', 480, 854],
  ['9:16 1080p', 1080, 1920],
  ['16:9 480p', 854, 480],
  ['16:9 1080p', 1920, 1080],
  ['1:1 480p', 480, 480],
  ['1:1 1080p', 1080, 1080],
];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'captions-ocr-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const words = (t: string) =>
  t
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/[^a-z0-9]/g, ''))
    .filter(Boolean);

interface OcrWord {
  text: string;
  line: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Tesseract's words (TSV, level 5) of a black-on-white image. */
async function ocr(png: string): Promise<OcrWord[]> {
  const { stdout } = await run('tesseract', [png, 'stdout', '--psm', '6', 'tsv'], { maxBuffer: 8 << 20 });
  return stdout
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split('\t'))
    .filter((c) => c[0] === '5' && c[11]?.trim() && Number(c[10]) > 0)
    .map((c) => {
      const [left, top, width, height] = c.slice(6, 10).map(Number);
      return { text: c[11], line: `${c[2]}.${c[3]}.${c[4]}`, left, top, right: left + width, bottom: top + height };
    });
}

describe('burned captions read back with Tesseract OCR', () => {
  it.each(FRAMES)('%s: every caption whole, at most two lines, inside the title-safe area', async (name, w, h) => {
    const tag = name.replace(/[^0-9a-z]/gi, '');
    // One second a sentence-part is plenty for a still; the cue times are what the engine measures in real renders.
    let t = 0;
    const timed = SENTENCES.map((text) => {
      const s = { text, start: t, end: t + Math.max(1.2, text.length / 14) };
      t = s.end;
      return s;
    });
    const cues = cuesFromSentences(timed);
    const ass = toAss(cues, w, h);
    const dialogues = ass
      .split('\n')
      .filter((l) => l.startsWith('Dialogue:'))
      .map((l) => {
        const [, start, end] = l.split(',');
        const sec = (s: string) => s.split(':').reduce((a, x) => a * 60 + Number(x), 0);
        return { mid: (sec(start) + sec(end)) / 2, text: l.split(',,0,0,0,,')[1] };
      });
    // Every word of the narration is in a caption, in order, and no caption is longer than two of the frame's lines.
    expect(dialogues.map((d) => d.text).join(' ')).toBe(SENTENCES.join(' '));
    for (const d of dialogues) expect(d.text.length).toBeLessThanOrEqual(captionChars(w, h).cue);

    // A dark, non-uniform background (a gradient), as a real still would be: captions are the only white in it.
    const bg = path.join(dir, `${tag}-bg.png`);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1d2b4a"/><stop offset="1" stop-color="#4a2340"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`;
    await sharp(Buffer.from(svg)).png().toFile(bg);
    const burn = path.join(dir, `${tag}.ass`);
    await writeFile(burn, ass);
    const video = path.join(dir, `${tag}.mp4`);
    await renderStill(tools, {
      image: bg,
      out: video,
      width: w,
      height: h,
      fps: FPS,
      frames: Math.ceil(t * FPS),
      motion: 'zoom_in',
      burnSubtitles: burn,
    });

    const problems: string[] = [];
    for (const [i, d] of dialogues.entries()) {
      const frame = path.join(dir, `${tag}-${i}.png`);
      await runTool(tools.ffmpeg, ['-v', 'error', '-y', '-ss', d.mid.toFixed(2), '-i', video, '-frames:v', '1', frame]);
      // The caption's own pixels (white fill): their box must keep clear of every edge of the frame.
      const { x0, y0, x1, y1 } = await whiteBox(frame);
      expect(x1).toBeGreaterThan(x0); // a caption is drawn
      const safe = { left: 0.05 * w, right: 0.95 * w, bottom: 0.95 * h };
      if (x0 < safe.left || x1 > safe.right || y1 > safe.bottom)
        problems.push(
          `cue ${i} "${d.text}": caption pixels ${x0}..${x1} × ${y0}..${y1} leave the safe area of ${w}×${h}`,
        );

      // Black text on white for Tesseract: the white fill kept, everything else dropped.
      const clean = path.join(dir, `${tag}-${i}-ocr.png`);
      await sharp(frame).greyscale().threshold(200).negate().png().toFile(clean);
      const read = await ocr(clean);
      const lines = new Set(read.map((r) => r.line));
      const got = words(read.map((r) => r.text).join(' '));
      const want = words(d.text);
      const missing = want.filter((x) => !got.includes(x));
      if (missing.length > Math.floor(want.length / 10))
        problems.push(`cue ${i} "${d.text}": OCR read "${got.join(' ')}" (missing ${missing.join(', ')})`);
      if (lines.size > 2) problems.push(`cue ${i} "${d.text}": ${lines.size} lines`);
      for (const r of read)
        if (r.left < safe.left || r.right > safe.right || r.bottom > safe.bottom)
          problems.push(
            `cue ${i}: word "${r.text}" at ${r.left}..${r.right} × ${r.top}..${r.bottom} outside the safe area`,
          );
    }
    expect(problems).toEqual([]);
  });
});

/** The white pixels' box of a frame (captions and card text are the only white: stills are dimmed). */
async function whiteBox(frame: string) {
  const { data, info } = await sharp(frame).greyscale().raw().toBuffer({ resolveWithObject: true });
  let [x0, y0, x1, y1] = [info.width, info.height, -1, -1];
  for (let y = 0; y < info.height; y++)
    for (let x = 0; x < info.width; x++)
      if (data[y * info.width + x] > 200) {
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
        y0 = Math.min(y0, y);
        y1 = Math.max(y1, y);
      }
  return { x0, y0, x1, y1 };
}

describe('designed cards read back with Tesseract OCR', () => {
  const heading = 'Host a monthly author night';
  const narration = 'Host a monthly author night. Readers who come once tend to come back with friends.';
  it.each(FRAMES.filter(([n]) => n.endsWith('1080p') || n === '9:16 480p'))(
    '%s: heading and key line read whole at both ends of the zoom, inside the safe area',
    async (name, w, h) => {
      const tag = `card-${name.replace(/[^0-9a-z]/gi, '')}`;
      const still = path.join(dir, `${tag}.png`);
      const info = await renderSceneStill({
        visual: { kind: 'image', colors: ['#1e3a8a', '#9333ea'], motion: 'zoom_in' },
        description: 'clean abstract illustration for the scene “Host a monthly author night”, with a slow zoom',
        heading,
        narration,
        width: w,
        height: h,
        out: still,
      });
      expect(info.rendered_as).toBe('designed_card');
      const video = path.join(dir, `${tag}.mp4`);
      await renderStill(tools, {
        image: still,
        out: video,
        width: w,
        height: h,
        fps: FPS,
        frames: 10,
        motion: 'zoom_in',
      });
      const problems: string[] = [];
      for (const at of ['0', '0.85']) {
        const frame = path.join(dir, `${tag}-${at}.png`);
        await runTool(tools.ffmpeg, ['-v', 'error', '-y', '-ss', at, '-i', video, '-frames:v', '1', frame]);
        const box = await whiteBox(frame);
        if (box.x0 < 0.05 * w || box.x1 > 0.95 * w || box.y0 < 0.05 * h || box.y1 > 0.75 * h)
          problems.push(`${at}s: text pixels ${box.x0}..${box.x1} × ${box.y0}..${box.y1} of ${w}×${h}`);
        const clean = path.join(dir, `${tag}-${at}-ocr.png`);
        await sharp(frame).greyscale().threshold(200).negate().png().toFile(clean);
        const got = words((await ocr(clean)).map((r) => r.text).join(' '));
        const want = words(`${heading} Readers who come once tend to come back with friends.`);
        const missing = want.filter((x) => !got.includes(x));
        if (missing.length > 1) problems.push(`${at}s: OCR read "${got.join(' ')}" (missing ${missing.join(', ')})`);
      }
      expect(problems).toEqual([]);
    },
  );

  it('a gradient enlarged to a 1080×1920 frame has no bands: dithered, no run of equal pixels longer than 8', async () => {
    const out = path.join(dir, 'gradient.png');
    await renderBackground({ kind: 'gradient', colors: ['#1e3a8a', '#312e81'] }, 1080, 1920, out);
    const { data, info } = await sharp(out).greyscale().raw().toBuffer({ resolveWithObject: true });
    // Down the middle column, where an undithered gradient of close colours changes level every few dozen pixels.
    let run = 1;
    let longest = 1;
    const x = Math.floor(info.width / 2);
    for (let y = 1; y < info.height; y++) {
      run = data[y * info.width + x] === data[(y - 1) * info.width + x] ? run + 1 : 1;
      longest = Math.max(longest, run);
    }
    expect(longest).toBeLessThanOrEqual(8);
  });
});
