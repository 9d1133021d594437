/**
 * GET /api/videonet/videos/{filename}: a rendered file (MP4, or its SRT/WebVTT
 * subtitles) served to its owner from the storage port, with HTTP Range
 * (one range → 206 with Content-Range; past the end → 416), a strong ETag
 * (If-None-Match → 304; If-Range honoured), the file's Content-Type and
 * Accept-Ranges. File names are single path segments: `/`, `\` and `..` are
 * refused by the path schema, and again by the storage port.
 */
import { NotFoundError, RangeNotSatisfiableError, ServiceUnavailableError } from '../../domain/errors';
import { decideRange, etagListMatches, ifRangeAllows } from '../../domain/media/range';
import { getMediaFile } from '../../projections/video';
import { userIdOf } from '../kernel/handler';
import { defineRoute, RouteCtx } from '../kernel/registry';
import type { HandlerResult } from '../kernel/types';
import type { MediaStorage, StoredObject } from '../../infra/storage/port';
import { filenameParams } from './schemas';

const binary = { type: 'string', format: 'binary' };

export const videoFileRoute = defineRoute<unknown, unknown, { filename: string }>({
  method: 'get',
  path: '/api/videonet/videos/{filename}',
  auth: 'user',
  tags: ['video studio'],
  // A player fetches a video in several range requests: downloads share the polling window, not the general one.
  rateScheme: 'status',
  summary: 'Serve a generated video file (Range, ETag)',
  description:
    'The MP4 (video/mp4) of a completed render, or its subtitles (`.srt` application/x-subrip, `.vtt` text/vtt). Honors `Range: bytes=start-end` (206), `If-None-Match` (304) and `If-Range`.',
  request: { params: filenameParams },
  responses: {
    200: { description: 'The whole file', contentType: 'video/mp4', data: binary },
    206: { description: 'The requested byte range (Content-Range)', contentType: 'video/mp4', data: binary },
    304: { description: 'Not modified (If-None-Match matched the ETag)' },
  },
  errors: {
    416: 'The range starts past the end of the file (Content-Range: bytes */size)',
    503: 'Media storage is not configured',
  },
  async handler(ctx) {
    const storage = ctx.deps.media?.storage;
    if (!storage)
      throw new ServiceUnavailableError('Media storage is not configured on this API', { service: 'media' });
    const file = await getMediaFile(ctx.deps.db, userIdOf(ctx), ctx.params.filename);
    const stored = file && (await storage.stat(`videos/${file.filename}`));
    if (!stored) throw new NotFoundError('Video file not found');
    return serveStored(ctx, storage, stored);
  },
});

/**
 * Answers with a stored file: Range (one range → 206, past the end → 416),
 * strong ETag (If-None-Match → 304; If-Range honoured), Accept-Ranges,
 * Last-Modified. Shared by the video studio and the podcast maker's file routes.
 */
export function serveStored(ctx: RouteCtx, storage: MediaStorage, stored: StoredObject): HandlerResult {
  const headers: Record<string, string> = {
    ETag: stored.etag,
    'Accept-Ranges': 'bytes',
    'Last-Modified': stored.modifiedAt.toUTCString(),
    'Cache-Control': 'private, max-age=3600',
  };
  if (etagListMatches(ctx.req.header('if-none-match'), stored.etag))
    return { raw: { status: 304, contentType: stored.contentType, body: '', headers } };
  const range = ifRangeAllows(ctx.req.header('if-range'), stored.etag)
    ? decideRange(ctx.req.header('range'), stored.size)
    : ({ kind: 'full' } as const);
  if (range.kind === 'unsatisfiable') {
    ctx.res.setHeader('Content-Range', `bytes */${stored.size}`);
    throw new RangeNotSatisfiableError(`The range starts past the end of the file (${stored.size} bytes)`, {
      size: stored.size,
    });
  }
  if (range.kind === 'partial')
    return {
      raw: {
        status: 206,
        contentType: stored.contentType,
        headers: {
          ...headers,
          'Content-Range': `bytes ${range.start}-${range.end}/${stored.size}`,
          'Content-Length': String(range.end - range.start + 1),
        },
        body: storage.read(stored.key, range),
      },
    };
  return {
    raw: {
      status: 200,
      contentType: stored.contentType,
      headers: { ...headers, 'Content-Length': String(stored.size) },
      body: storage.read(stored.key),
    },
  };
}
