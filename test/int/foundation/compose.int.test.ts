/**
 * docker-compose.yml checked the way an engine-less machine can (README, "Docker"): Debian's `docker-compose`
 * (scripts/test installs it) renders the file — interpolation, anchors, depends_on — as `docker compose up` would
 * read it, and every platform service's rendered environment then goes through the configuration schema and the
 * processes' own start-up checks (infra/startup.ts). Without WEBHOOK_SECRET_KEY the file refuses to render and says
 * what to set. The stack services run the versions scripts/stack runs.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { loadConfig, publicBaseUrl } from '../../../infra/config';
import { startupProblems } from '../../../infra/startup';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../../..');
const platform = ['api', 'worker', 'relay', 'projector'];
const KEY = Buffer.alloc(32, 7).toString('base64');

/** `docker-compose config` with exactly `env` (plus PATH): the file as an engine would read it. */
async function render(env: Record<string, string>) {
  const { stdout } = await run('docker-compose', ['-f', path.join(root, 'docker-compose.yml'), 'config'], {
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  return parse(stdout) as { services: Record<string, Record<string, unknown>> };
}

describe('docker-compose.yml rendered by docker-compose', () => {
  it.each(platform)('%s: what compose renders passes the configuration and the start-up checks', async (name) => {
    const c = await render({ WEBHOOK_SECRET_KEY: KEY });
    const env = c.services[name].environment as Record<string, string>;
    const config = loadConfig(env);
    expect(startupProblems(config)).toEqual([]);
    // Clients are sent to an address they can reach, never the listen address.
    expect(publicBaseUrl(config)).toBe('http://localhost:8000');
    expect(c.services[name].restart).toBe('unless-stopped');
  });

  it('without WEBHOOK_SECRET_KEY it refuses to render and says what to set; the processes would refuse too', async () => {
    const err = await render({}).then(
      () => undefined,
      (e: { stderr?: string }) => e.stderr ?? String(e),
    );
    expect(err).toContain('set WEBHOOK_SECRET_KEY to 32 random bytes in base64');
    const c = await render({ WEBHOOK_SECRET_KEY: KEY, PUBLIC_BASE_URL: '' });
    const env = { ...(c.services.api.environment as Record<string, string>), WEBHOOK_SECRET_KEY: '' };
    const problems = startupProblems(loadConfig(env));
    expect(problems.join('\n')).toMatch(/WEBHOOK_SECRET_KEY must be set in production/);
  });

  it('a listen address is never the public URL: HOST 0.0.0.0 without PUBLIC_BASE_URL is refused in production', async () => {
    const c = await render({ WEBHOOK_SECRET_KEY: KEY });
    const env = { ...(c.services.api.environment as Record<string, string>), PUBLIC_BASE_URL: '' };
    expect(startupProblems(loadConfig(env)).join('\n')).toMatch(/PUBLIC_BASE_URL must be set in production/);
  });

  it('starts in order on health, and runs the versions scripts/stack runs, search attributes registered', async () => {
    const c = await render({ WEBHOOK_SECRET_KEY: KEY });
    const s = c.services;
    expect(s.api.depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      temporal: { condition: 'service_healthy' },
      kafka: { condition: 'service_healthy' },
    });
    for (const name of ['worker', 'relay', 'projector'])
      expect(s[name].depends_on).toEqual({ api: { condition: 'service_healthy' } });
    for (const name of ['postgres', 'temporal', 'kafka', 'api']) expect(s[name].healthcheck).toBeDefined();
    const stack = readFileSync(path.join(root, 'scripts/stack'), 'utf8');
    const cli = /TEMPORAL_CLI_VERSION="v(\d+\.\d+)\.\d+"/.exec(stack)![1];
    const kafka = /KAFKA_VERSION="([\d.]+)"/.exec(stack)![1];
    // The CLI's go.mod pins the server it embeds: v1.5.x embeds server 1.29.1.
    expect(s.temporal.image).toMatch(
      new RegExp(`^temporalio/admin-tools:1\\.29\\.1-.*-cli-${cli.replace('.', '\\.')}\\.\\d+$`),
    );
    expect(s.kafka.image).toBe(`apache/kafka:${kafka}`);
    const command = (s.temporal.command as string[]).join(' ');
    expect(command).toContain('--search-attribute=UserId=Keyword');
    expect(command).toContain('--search-attribute=TaskType=Keyword');
    expect(command).toContain('--namespace=content-platform');
  });

  it('builds from the sources only: .dockerignore keeps live data, tools and packages out; npm ci installs', () => {
    const ignored = readFileSync(path.join(root, '.dockerignore'), 'utf8').split('\n');
    for (const p of ['.run', '.tools', 'node_modules', '.git', 'dist']) expect(ignored).toContain(p);
    const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/npm ci /);
    expect(dockerfile).not.toMatch(/npm install/);
  });
});
