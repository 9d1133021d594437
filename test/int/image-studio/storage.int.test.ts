/**
 * The image storage port against real stores: the local directory adapter,
 * and the S3-compatible adapter against s3rver (an S3 server from npm,
 * started on loopback): bucket creation, PUT/HEAD/GET with Range over the S3
 * REST protocol. s3rver checks the access key id of a SigV4 request but not
 * its signature (its V4 check is unimplemented), so the signature itself is
 * tested against AWS's published example in test/unit/image/sigv4.
 */
import { mkdtempSync, rmSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import {
  createLocalImageStorage,
  createS3ImageStorage,
  ensureS3Bucket,
  ImageStorage,
  S3Settings,
} from '../../../infra/image/storage';
import { solid } from '../../support/images';

jest.setTimeout(60000);

async function contract(storage: ImageStorage) {
  const png = await solid(64, 48);
  const a = await storage.put(png, 'png');
  expect(a).toEqual({
    key: expect.stringMatching(/^[0-9a-f]{64}\.png$/),
    contentType: 'image/png',
    bytes: png.length,
    etag: `"${a.key.slice(0, 64)}"`,
  });
  expect(await storage.put(png, 'png')).toEqual(a); // content-addressed: stored once, same key
  expect(await storage.stat(a.key)).toEqual(a);
  expect((await storage.read(a.key))!.equals(png)).toBe(true);
  expect((await storage.read(a.key, { start: 1, end: 8 }))!.equals(png.subarray(1, 9))).toBe(true);
  expect(await storage.stat(`${'0'.repeat(64)}.png`)).toBeUndefined();
  expect(await storage.read(`${'0'.repeat(64)}.jpg`)).toBeUndefined();
  for (const bad of ['../../etc/passwd', `../${a.key}`, 'x.png', `${a.key}/..`])
    await expect(storage.read(bad)).rejects.toThrow(/not an image key/);
  await storage.check();
}

describe('image storage adapters', () => {
  it('local directory: the port contract, files fanned out by hash, no traversal', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'images-'));
    try {
      const s = createLocalImageStorage(dir);
      await contract(s);
      const [first] = readdirSync(dir).filter((f) => !f.startsWith('.'));
      expect(first).toMatch(/^[0-9a-f]{2}$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('S3-compatible (s3rver on loopback)', () => {
    let server: S3rver;
    let dir: string;
    let settings: S3Settings;
    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), 's3rver-'));
      server = new S3rver({ address: '127.0.0.1', port: 0, directory: dir, silent: true });
      const { port } = await server.run();
      settings = {
        endpoint: `http://127.0.0.1:${port}`,
        bucket: 'images',
        region: 'us-east-1',
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        prefix: 'studio/',
      };
      await ensureS3Bucket(settings);
    });
    afterAll(async () => {
      await server?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('the port contract over SigV4-signed requests', async () => {
      await contract(createS3ImageStorage(settings));
    });

    it('an unknown access key is refused by the server', async () => {
      const bad = createS3ImageStorage({ ...settings, accessKeyId: 'NOBODY' });
      await expect(bad.put(await solid(8, 8), 'png')).rejects.toThrow(
        /S3 PUT .* failed: HTTP 403 .*InvalidAccessKeyId/,
      );
    });

    it('a missing bucket fails the health check', async () => {
      await expect(createS3ImageStorage({ ...settings, bucket: 'nope' }).check()).rejects.toThrow(
        /not reachable: HTTP 404/,
      );
    });
  });
});
