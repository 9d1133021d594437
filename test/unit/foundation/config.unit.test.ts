import { CONFIG_VARS, ConfigError, loadConfig } from '../../../infra/config';

describe('configuration', () => {
  it('defaults point at the local stack', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(8000);
    expect(c.DATABASE_URL).toBe('postgres://platform:platform@127.0.0.1:55432/platform');
    expect(c.TEMPORAL_ADDRESS).toBe('127.0.0.1:7233');
    expect(c.KAFKA_BROKERS).toBe('127.0.0.1:19092');
    expect(c.MIGRATE_ON_START).toBe(true);
  });

  it('coerces numbers and booleans from strings', () => {
    const c = loadConfig({ PORT: '9001', MIGRATE_ON_START: 'false', DATABASE_POOL_MAX: '3' });
    expect(c.PORT).toBe(9001);
    expect(c.MIGRATE_ON_START).toBe(false);
    expect(c.DATABASE_POOL_MAX).toBe(3);
  });

  it('every service address can be pointed elsewhere', () => {
    const c = loadConfig({
      DATABASE_URL: 'postgres://u:p@db.internal:5432/x',
      TEMPORAL_ADDRESS: 'temporal.internal:7233',
      KAFKA_BROKERS: 'k1:9092,k2:9092',
    });
    expect(c.DATABASE_URL).toContain('db.internal');
    expect(c.TEMPORAL_ADDRESS).toBe('temporal.internal:7233');
    expect(c.KAFKA_BROKERS).toBe('k1:9092,k2:9092');
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['KAFKA_BROKERS', 'no-port'],
    ['LOG_LEVEL', 'loud'],
    ['MIGRATE_ON_START', 'maybe'],
  ])('a wrong %s (%s) is refused with a message naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    try {
      loadConfig({ [name]: value });
    } catch (e) {
      expect((e as ConfigError).variable).toBe(name);
      expect((e as Error).message).toContain(name);
    }
  });

  it('documents every variable', () => {
    for (const [name, spec] of Object.entries(CONFIG_VARS))
      expect({ name, ok: spec.description.length > 5 }).toEqual({ name, ok: true });
  });
});

describe('docs/configuration.md', () => {
  it('lists every variable (regenerate with npx tsx scripts/config-docs.ts)', () => {
    const doc = require('node:fs').readFileSync(
      require('node:path').resolve(__dirname, '../../../docs/configuration.md'),
      'utf8',
    ) as string;
    for (const name of Object.keys(CONFIG_VARS)) expect(doc).toContain(`| \`${name}\` |`);
  });
});
