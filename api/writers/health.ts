/**
 * GET /api/profnet/health and /api/socialnet-writer/health: the Health report
 * of Document 2 (status, timestamp, version, services as status strings)
 * plus the modules and providers the writer offers here. Rendering services
 * are reported as the generations will find them (api/writers/render.ts):
 * the image studio with its provider (a vendor, or the offline `local`
 * renderer), the video studio with its speech provider, or `not_available`
 * with what to configure.
 * 503 SERVICE_UNAVAILABLE (with the report in details) when PostgreSQL,
 * Temporal or Kafka is down, like /api/health.
 */
import { ServiceUnavailableError } from '../../domain/errors';
import { AD_FORMATS } from '../../domain/writers/ad-formats';
import { WRITER_KINDS, WriterPlatform } from '../../domain/writers/types';
import { VERSION } from '../health/routes';
import { defineRoute, RouteDef } from '../kernel/registry';
import { PREFIX, TAG } from './common';
import { renderServices } from './render';
import { healthSchema } from './responses';

function healthRoute(platform: WriterPlatform): RouteDef {
  return defineRoute({
    method: 'get',
    path: `${PREFIX[platform]}/health`,
    auth: 'user',
    successBody: 'bare',
    tags: [TAG[platform]],
    summary: 'Health of the writer: services, modules and providers available',
    description:
      'Needs an API key (it describes the configuration a client works with); monitoring probes use the public /api/health.',
    responses: { 200: { description: 'Health report', data: healthSchema } },
    errors: { 503: 'A service the writer needs is down (details carry the report)' },
    async handler({ deps }) {
      const { status, services } = await deps.health();
      const text = deps.aiProvider ?? 'local';
      const render = renderServices(deps);
      const image = render.image.available
        ? render.image.provider === 'local'
          ? 'offline (local procedural renderer)'
          : render.image.provider
        : `not_available: ${render.image.reason}`;
      const video = render.video.available
        ? render.video.speechVendor
          ? 'tts_vendor speech, local visuals'
          : 'offline (espeak-ng speech, local visuals)'
        : `not_available: ${render.video.reason}`;
      const modules: Record<string, string> = Object.fromEntries(WRITER_KINDS[platform].map((k) => [k, 'available']));
      modules.batch = 'available';
      if (platform === 'profnet') modules.user_preferences = 'available';
      if (platform === 'socialnet') modules.engagement_analysis = 'available';
      modules.image_rendering = render.image.available ? 'available' : 'not_available';
      // Only the professional network's video post is rendered to video.
      modules.video_rendering = platform === 'profnet' && render.video.available ? 'available' : 'not_available';
      const data = {
        status: status === 'ok' ? 'healthy' : 'degraded',
        timestamp: new Date().toISOString(),
        version: VERSION,
        services: {
          ...Object.fromEntries(
            Object.entries(services).map(([k, v]) => [k, v.status === 'ok' ? 'healthy' : 'unhealthy']),
          ),
          text_generation: text === 'local' ? 'offline (local provider)' : 'configured',
          research: 'available',
          image_studio: render.image.available ? 'available' : 'not_available',
          video_studio: render.video.available ? 'available' : 'not_available',
        },
        modules,
        providers: { text: text, research: 'corpus', image, video },
        ...(platform === 'socialnet' ? { ad_formats: [...AD_FORMATS] } : {}),
      };
      if (status !== 'ok')
        throw new ServiceUnavailableError(
          `Unavailable: ${Object.entries(services)
            .filter(([, v]) => v.status !== 'ok')
            .map(([k]) => k)
            .join(', ')}`,
          data,
        );
      return { data };
    },
  });
}

export const writerHealthRoutes: RouteDef[] = [healthRoute('profnet'), healthRoute('socialnet')];
