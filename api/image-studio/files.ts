/**
 * GET /api/image-studio/images/{key}: a stored image of the caller, served
 * from the image storage with Content-Type, a strong ETag (the content hash:
 * If-None-Match answers 304), Cache-Control (a key's bytes never change) and
 * byte ranges (Range → 206 with Content-Range; unsatisfiable → 416). A key
 * the caller never got — another user's image, or anything that is not a
 * storage key — is 404, so paths cannot be probed or traversed.
 */
import { NotFoundError } from '../../domain/errors';
import { getImageAsset } from '../../projections/image-assets';
import { KEY_PATTERN } from '../../infra/image/storage';
import { defineRoute, RouteDef } from '../kernel/registry';
import { userIdOf } from '../kernel/handler';
import { allRequired } from '../kernel/schema';
import { PREFIX, studioOf, tags } from './common';

const binary = { type: 'string', format: 'binary' };

export const imageFileRoutes: RouteDef[] = [
  defineRoute<unknown, unknown, { key: string }>({
    method: 'get',
    path: `${PREFIX}/images/{key}`,
    auth: 'user',
    tags,
    summary: 'A stored image of the caller (the image_url of results): Content-Type, ETag, Range',
    description:
      "Serves the bytes of an image the caller got (every `image_url` of the studio's results), with a strong ETag (its content hash: If-None-Match answers 304) and a year-long private, immutable Cache-Control. One byte range is answered 206 with Content-Range; an unsatisfiable range 416; several ranges the whole file. Another user's key, an unknown key or anything that is not a storage key is 404.",
    request: { params: allRequired({ key: { type: 'string', maxLength: 80 } }) },
    responses: {
      200: { description: 'The image', contentType: 'image/*', data: binary },
      206: { description: 'A byte range of the image (Range header)', contentType: 'image/*', data: binary },
      304: { description: 'Not modified (If-None-Match holds the ETag)' },
    },
    errors: { 416: 'the Range lies outside the file' },
    handler: async (ctx) => {
      const key = ctx.params.key;
      if (!new RegExp(KEY_PATTERN).test(key)) throw new NotFoundError();
      const asset = await getImageAsset(ctx.deps.db, userIdOf(ctx), key);
      if (!asset) throw new NotFoundError();
      const storage = studioOf(ctx).storage;
      const st = await storage.stat(key);
      if (!st) throw new NotFoundError('Resource not found');
      const res = ctx.res;
      res.setHeader('ETag', st.etag);
      res.setHeader('Accept-Ranges', 'bytes');
      res.setHeader('Cache-Control', 'private, max-age=31536000, immutable');
      // A client that has these bytes already (If-None-Match with the key's ETag) gets 304 without a body.
      const inm = ctx.req.headers['if-none-match'];
      if (inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === st.etag))
        return { raw: { status: 304, contentType: st.contentType, body: '' } };
      const header = ctx.req.headers.range;
      // A Range with a stale If-Range is answered with the whole file (RFC 9110 13.1.5).
      const ifRange = ctx.req.headers['if-range'];
      if (header && (!ifRange || ifRange === st.etag)) {
        const ranges = ctx.req.range(st.bytes, { combine: true });
        if (ranges === -1) {
          res.setHeader('Content-Range', `bytes */${st.bytes}`);
          return {
            raw: {
              status: 416,
              contentType: 'application/json',
              body: JSON.stringify({ detail: `Range not satisfiable: the file has ${st.bytes} bytes` }),
            },
          };
        }
        // One range is served; a malformed header (-2) or several ranges get the whole file.
        if (ranges && ranges !== -2 && ranges.length === 1) {
          const { start, end } = ranges[0];
          const part = await storage.read(key, { start, end });
          if (!part) throw new NotFoundError();
          res.setHeader('Content-Range', `bytes ${start}-${end}/${st.bytes}`);
          return { raw: { status: 206, contentType: st.contentType, body: part } };
        }
      }
      const body = await storage.read(key);
      if (!body) throw new NotFoundError();
      return { raw: { status: 200, contentType: st.contentType, body } };
    },
  }),
];
