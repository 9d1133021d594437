/**
 * GET /api/health (general family) and GET /v1/health (developer family):
 * status and latency of PostgreSQL, Temporal and Kafka. Public, so a
 * monitoring probe or a newly made API key can be tested against it.
 * 200 when every service is ok, 503 SERVICE_UNAVAILABLE otherwise.
 */
import { Router } from 'express';
import type { AppDeps } from '../app';

export const VERSION = process.env.npm_package_version ?? '0.1.0';

export function healthRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get(['/api/health', '/v1/health'], async (req, res) => {
    const { status, services } = await deps.health();
    const timestamp = new Date().toISOString();
    const data = { status, version: VERSION, services, temporal_ui: deps.temporalUiUrl };
    const developer = req.path.startsWith('/v1');
    const meta = developer ? { meta: { request_id: res.locals.requestId as string, timestamp } } : { timestamp };
    if (status === 'ok') {
      res.status(200).json({ success: true, data, ...meta });
    } else {
      const down = Object.entries(services).filter(([, s]) => s.status !== 'ok').map(([n]) => n);
      res.status(503).json({
        success: false,
        error: { code: 'SERVICE_UNAVAILABLE', message: `Unavailable: ${down.join(', ')}`, details: data },
        ...meta,
      });
    }
  });
  return router;
}
