/** Test images made with sharp: solid, striped, noisy, and files that are broken on purpose. */
import sharp from 'sharp';
import { deflateSync } from 'node:zlib';

export const solid = (width: number, height: number, colour = '#3366cc') =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();

/** Vertical stripes of the given colours, equal widths, left to right. */
export async function stripes(width: number, height: number, colours: string[], type: 'png' | 'jpg' = 'png') {
  const w = width / colours.length;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${colours
    .map((c, i) => `<rect x="${i * w}" y="0" width="${w}" height="${height}" fill="${c}"/>`)
    .join('')}</svg>`;
  const p = sharp(Buffer.from(svg));
  return type === 'png' ? p.png().toBuffer() : p.jpeg({ quality: 95 }).toBuffer();
}

/** A subject (a red disc) on a flat white background. */
export const discOnWhite = (width = 300, height = 200) =>
  sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
    .composite([
      {
        input: Buffer.from(
          `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="#cc0022"/></svg>`,
        ),
      },
    ])
    .png()
    .toBuffer();

/** Random noise: incompressible, for size-limit tests. */
export function noise(width: number, height: number, seed = 1) {
  const data = Buffer.alloc(width * height * 3);
  let x = seed;
  for (let i = 0; i < data.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    data[i] = x >>> 24;
  }
  return sharp(data, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}
const chunk = (type: string, data: Buffer) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
};

/** A valid PNG header claiming width x height (a decompression bomb's header) with a tiny IDAT. */
export function pngHeaderClaiming(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(64))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The pixel at (x, y) as [r, g, b, a]. */
export async function pixel(png: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * 4;
  return [data[i], data[i + 1], data[i + 2], data[i + 3]];
}

export const b64 = (b: Buffer) => b.toString('base64');
export const fromB64 = (s: string) => Buffer.from(s.replace(/^data:[^,]*,/, ''), 'base64');
