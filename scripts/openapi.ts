/**
 * Writes the OpenAPI document of every platform route to stdout (or the file
 * given), without starting anything: `npm run openapi -- .run/openapi.json`.
 * scripts/test lints it with @redocly/cli.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PLATFORM_ROUTES } from '../api/routes';
import { docsRoutes } from '../api/docs/routes';
import { buildOpenApi } from '../api/kernel/openapi';
import { VERSION } from '../api/health/routes';
import OPERATION_EXAMPLES from '../api/docs/openapi-examples.json';

const routes = [...PLATFORM_ROUTES];
routes.push(...docsRoutes(() => routes));
const doc = JSON.stringify(
  buildOpenApi(routes, {
    version: VERSION,
    serverUrl: process.env.PUBLIC_BASE_URL || undefined,
    examples: OPERATION_EXAMPLES,
  }),
  null,
  2,
);
const out = process.argv[2];
if (out) {
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, `${doc}\n`);
} else process.stdout.write(`${doc}\n`);
