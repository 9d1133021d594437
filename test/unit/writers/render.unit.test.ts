/**
 * Rendering through the studios (pure parts): the rendering status a finished
 * piece carries for each availability, the image-studio plans of a carousel's
 * slides and the video-studio job of a video post's scene plan; and the
 * per-kind `content` schemas of the result (a piece of one kind does not pass
 * as another).
 */
import Ajv from 'ajv';
import { writeSocial } from '../../../domain/generation/social';
import { buildJob } from '../../../domain/writers/briefs';
import type { WriterRequestBody } from '../../../domain/writers/requests';
import { writerRequest } from '../../../api/writers/schemas';
import { finishDraft } from '../../../domain/writers/finish';
import { emptyPreferences } from '../../../domain/writers/preferences';
import {
  RenderServices,
  renderAspect,
  renderVoice,
  slidePlans,
  videoPostRenderJob,
} from '../../../domain/writers/render';
import type { CarouselBrief, VideoPostBrief, WriterKind, WriterPlatform } from '../../../domain/writers/types';
import { CONTENT_SCHEMAS } from '../../../api/writers/content-schemas';

const available: RenderServices = {
  image: { available: true, provider: 'local', model: 'local-procedural-v1' },
  video: { available: true, speechVendor: false },
  baseUrl: '',
};
const missing: RenderServices = {
  image: { available: false, reason: 'no image storage (set IMAGE_STORAGE_DIR)' },
  video: { available: false, reason: 'no media storage (set MEDIA_STORAGE_DIR)' },
  baseUrl: '',
};

function piece(platform: WriterPlatform, kind: WriterKind, body: WriterRequestBody, s?: RenderServices) {
  const { brief } = buildJob(writerRequest(platform, kind, body), emptyPreferences());
  return { brief, piece: finishDraft(brief, writeSocial({ brief, sources: [] }), [], s) };
}

describe('rendering status of a finished piece', () => {
  it('requested and available: queued for the studio; requested and missing: not_available naming what to configure', () => {
    const body = { topic: 'email newsletters', slides: 3, render_images: true };
    expect(piece('profnet', 'carousel', body, available).piece.rendering).toEqual([
      expect.objectContaining({ asset: 'slide_images', status: 'queued', service: 'image_studio' }),
    ]);
    const none = piece('profnet', 'carousel', body, missing).piece.rendering[0];
    expect(none).toMatchObject({ status: 'not_available', requested: true });
    expect(none.message).toContain('IMAGE_STORAGE_DIR');
    expect(piece('profnet', 'carousel', { ...body, render_images: false }, available).piece.rendering[0].status).toBe(
      'not_requested',
    );
  });

  it('generate_video on a video post is the same ask as render; a post has no scene plan to render', () => {
    const v = piece(
      'profnet',
      'video_post',
      { topic: 'video tips', duration: '10_seconds', generate_video: true },
      available,
    );
    expect(v.piece.rendering).toEqual([expect.objectContaining({ asset: 'video', requested: true, status: 'queued' })]);
    const p = piece('profnet', 'post', { topic: 'video tips', multimedia: { generate_video: true } }, available);
    expect(p.piece.rendering[1]).toMatchObject({ asset: 'video', requested: true, status: 'not_available' });
    expect(p.piece.rendering[1].message).toContain('generate-video-post');
  });
});

describe('studio jobs', () => {
  it('one image plan per slide: the asked size, a seed per slide, the slide title drawn by the offline renderer', () => {
    const { brief, piece: p } = piece('profnet', 'carousel', { topic: 'email newsletters', slides: 4 }, available);
    const plans = slidePlans('t-1', brief as CarouselBrief, p.content, available.image as never, {
      width: 120,
      height: 150,
    });
    const slides = p.content.slides as Array<{ title: string }>;
    // At most the slides asked for: the offline writer leaves out a slide it has nothing for (no padding).
    expect(slides.length).toBeGreaterThanOrEqual(2);
    expect(slides.length).toBeLessThanOrEqual(4);
    expect(plans).toHaveLength(slides.length);
    plans.forEach((plan, i) => {
      expect(plan).toMatchObject({ provider: 'local', width: 120, height: 150, enhance: false });
      expect(plan.overlay).toEqual({ kind: 'title', text: slides[i].title });
      expect(plan.prompt).toContain(slides[i].title);
    });
    expect(new Set(plans.map((x) => x.seeds[0])).size).toBe(slides.length);
  });

  it("a video post's render job: the plan's scenes and durations, frames summing to the plan, offline voice", () => {
    const { brief, piece: p } = piece(
      'profnet',
      'video_post',
      { topic: 'video tips', duration: '12_seconds', aspect_ratio: '1:1', voice_type: 'calm female', render: true },
      available,
    );
    const job = videoPostRenderJob('t-2', brief as VideoPostBrief, p.content, false, { resolution: '480p', fps: 24 });
    const scenes = p.content.scenes as Array<{ duration_seconds: number; narration: string }>;
    expect(job.scenes.map((s) => s.duration_seconds)).toEqual(scenes.map((s) => s.duration_seconds));
    expect(job.scenes.reduce((a, s) => a + s.frames, 0)).toBe(12 * 24);
    expect(job.scenes.every((s) => s.narration.length > 0)).toBe(true);
    // 1:1 is not a video-studio format: a square request is rendered 9:16.
    expect([job.aspect_ratio, job.width, job.height]).toEqual(['9:16', 480, 854]);
    expect(job.scenes[0].voice).toEqual({ voice: 'en-us-f1', rate: 0.9 });
    // With the speech vendor, the vendor's default voice is kept.
    expect(videoPostRenderJob('t-2', brief as VideoPostBrief, p.content, true).scenes[0].voice).toEqual({});
  });

  it('aspect and voice mapping', () => {
    expect(renderAspect('16:9')).toBe('16:9');
    expect(renderAspect('4:5')).toBe('9:16');
    const b = { voice: { type: 'energetic British male' } } as VideoPostBrief;
    expect(renderVoice(b)).toEqual({ voice: 'en-gb-m1', rate: 1.15 });
  });
});

describe('per-kind content schemas', () => {
  const ajv = new Ajv({ strict: false });
  const check = (kind: WriterKind) => ajv.compile(CONTENT_SCHEMAS[kind]);

  it('a piece of each kind has its kind’s shape and not another’s', () => {
    const post = piece('socialnet', 'post', { topic: 'posting times' }).piece.content;
    const about = piece('socialnet', 'page_about', { business_type: 'bakery' }).piece.content;
    const reel = piece('socialnet', 'reel', { topic: 'headlines', duration: '15_seconds' }).piece.content;
    expect(check('post')(post)).toBe(true);
    expect(check('page_about')(about)).toBe(true);
    expect(check('reel')(reel)).toBe(true);
    expect(check('page_about')(post)).toBe(false);
    expect(check('post')(about)).toBe(false);
    expect(check('video_post')(reel)).toBe(false);
  });
});
