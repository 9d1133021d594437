/**
 * GET /openapi.json (the OpenAPI 3.1 document of every registered route) and
 * GET /docs (interactive page: swagger-ui-dist's assets, served from
 * /docs/assets by the app). Both public.
 */
import { createHash } from 'node:crypto';
import { defineRoute, RouteDef } from '../kernel/registry';
import { buildOpenApi } from '../kernel/openapi';
import { VERSION } from '../health/routes';
import { openApiDocumentSchema } from './document-schema';
import OPERATION_EXAMPLES from './openapi-examples.json';

const INIT =
  "window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, persistAuthorization: false });";
/** The page's policy: its own assets, its one inline script by hash, images from itself and data URLs (swagger-ui's icons). */
const PAGE_CSP = `default-src 'none'; script-src 'self' 'sha256-${createHash('sha256').update(INIT).digest('base64')}'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'`;
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>AI content platform API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>${INIT}</script>
</body>
</html>
`;

export function docsRoutes(all: () => RouteDef[]): RouteDef[] {
  let cached: string | undefined;
  return [
    defineRoute({
      method: 'get',
      path: '/openapi.json',
      auth: 'public',
      tags: ['docs'],
      summary: 'OpenAPI 3.1 document of every route',
      description:
        "Generated from the route registry: every operation with its credentials, parameters and request body (the JSON Schemas the API validates requests with), its success answer in its family's envelope and its error answers; `webhooks` lists the signed deliveries the platform makes. Public; built once per process. GET /docs renders it.",
      responses: {
        200: { description: 'The document', contentType: 'application/json', data: openApiDocumentSchema },
      },
      handler: ({ deps }) => {
        cached ??= JSON.stringify(
          buildOpenApi(all(), { version: VERSION, serverUrl: deps.publicBaseUrl, examples: OPERATION_EXAMPLES }),
        );
        return { raw: { contentType: 'application/json', body: cached } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/docs',
      auth: 'public',
      tags: ['docs'],
      summary: 'Interactive API documentation',
      description:
        'An HTML page (Swagger UI, its assets served from /docs/assets) that loads GET /openapi.json. Public; cacheable for 5 minutes.',
      responses: { 200: { description: 'HTML page', contentType: 'text/html', data: { type: 'string' } } },
      handler: ({ res }) => {
        res.setHeader('Content-Security-Policy', PAGE_CSP);
        res.setHeader('Cache-Control', 'public, max-age=300');
        return { raw: { contentType: 'text/html', body: PAGE } };
      },
    }),
  ];
}
