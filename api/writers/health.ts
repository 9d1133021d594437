/**
 * GET /api/profnet/health and /api/socialnet-writer/health: the Health report
 * of Document 2 (status, timestamp, version, services as status strings)
 * plus the modules and providers the writer offers here. Rendering services
 * (image studio, video studio) are reported `not_available`: this deployment
 * has none, and the carousel and video routes say so in their results.
 * 503 SERVICE_UNAVAILABLE (with the report in details) when PostgreSQL,
 * Temporal or Kafka is down, like /api/health.
 */
import { ServiceUnavailableError } from '../../domain/errors';
import { AD_FORMATS } from '../../domain/writers/ad-formats';
import { WRITER_KINDS, WriterPlatform } from '../../domain/writers/types';
import { VERSION } from '../health/routes';
import { defineRoute, RouteDef } from '../kernel/registry';
import { PREFIX, TAG } from './common';
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
      const modules: Record<string, string> = Object.fromEntries(WRITER_KINDS[platform].map((k) => [k, 'available']));
      modules.batch = 'available';
      if (platform === 'profnet') modules.user_preferences = 'available';
      if (platform === 'socialnet') modules.engagement_analysis = 'available';
      modules.image_rendering = 'not_available';
      modules.video_rendering = 'not_available';
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
          image_studio: 'not_available',
          video_studio: 'not_available',
        },
        modules,
        providers: { text: text, research: 'corpus', image: 'not_available', video: 'not_available' },
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
