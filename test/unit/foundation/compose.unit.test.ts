/**
 * docker-compose.yml cannot run here (no Docker engine), so it is checked:
 * every platform service sets only variables the configuration knows, with
 * values the configuration schema accepts, and points at the compose services.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { CONFIG_VARS, loadConfig } from '../../../infra/config';

const compose = parse(readFileSync(path.resolve(__dirname, '../../../docker-compose.yml'), 'utf8'), { merge: true });
const platform = ['api', 'worker', 'relay', 'projector'];

describe('docker-compose.yml', () => {
  it('has the stack services and the platform processes', () => {
    for (const s of ['postgres', 'temporal', 'kafka', ...platform]) expect(Object.keys(compose.services)).toContain(s);
    expect(compose.services.kafka.image).toMatch(/^apache\/kafka:3\.9/);
    expect(compose.services.kafka.environment.KAFKA_PROCESS_ROLES).toBe('broker,controller');
  });

  it.each(platform)('%s sets only known variables, and they validate', (name) => {
    const env = compose.services[name].environment as Record<string, string>;
    const unknown = Object.keys(env).filter((k) => !(k in CONFIG_VARS));
    expect(unknown).toEqual([]);
    // Interpolated values (`${VAR:?…}`, `${VAR:-default}`) are rendered by docker-compose in the int test
    // (test/int/foundation/compose.int.test.ts); here the literal ones are validated.
    const literal = Object.fromEntries(Object.entries(env).filter(([, v]) => !String(v).includes('${')));
    const c = loadConfig(literal);
    expect(c.DATABASE_URL).toContain('@postgres:');
    expect(c.TEMPORAL_ADDRESS).toBe('temporal:7233');
    expect(c.KAFKA_BROKERS).toBe('kafka:9092');
  });

  it('runs Temporal as scripts/stack does: the same SQLite pragmas and dynamic config values', () => {
    const stack = readFileSync(path.resolve(__dirname, '../../../scripts/stack'), 'utf8');
    // scripts/stack's defaults for the values it takes from the environment.
    const defaults: Record<string, string> = {
      TEMPORAL_POLL_RPS: /TEMPORAL_POLL_RPS="\$\{STACK_TEMPORAL_POLL_RPS:-(\w+)\}"/.exec(stack)![1],
      TEMPORAL_EAGER_ACTIVITIES: /TEMPORAL_EAGER_ACTIVITIES="\$\{STACK_TEMPORAL_EAGER_ACTIVITIES:-(\w+)\}"/.exec(
        stack,
      )![1],
    };
    const expected = [...stack.matchAll(/--(sqlite-pragma|dynamic-config-value) "?([\w.]+=[^"\s)]+)"?/g)].map(
      ([, flag, value]) => `--${flag}=${value.replace(/\$(\w+)/, (_, v: string) => defaults[v] ?? `<${v}>`)}`,
    );
    expect(expected.length).toBeGreaterThanOrEqual(7);
    const command = compose.services.temporal.command as string[];
    expect(command).toEqual(expect.arrayContaining(expected));
    expect(command.filter((a) => /^--(sqlite-pragma|dynamic-config-value)=/.test(a)).sort()).toEqual(expected.sort());
  });

  it('builds the platform from the Dockerfile', () => {
    for (const s of platform) expect(compose.services[s].build).toBe('.');
    expect(readFileSync(path.resolve(__dirname, '../../../Dockerfile'), 'utf8')).toContain('npm run build');
  });
});
