/**
 * Buffered log lines (infra/logger.ts, LOG_BUFFER_BYTES) are not lost when a
 * process ends: a normal exit, process.exit and an uncaught error all write the
 * buffer; redaction still applies to buffered lines.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');

function run(code: string): string {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', code], { cwd: root, encoding: 'utf8' });
  return r.stdout;
}

const prelude = `const { createLogger } = require('./infra/logger'); const log = createLogger('t', 'info', 4096);`;

describe('buffered logger', () => {
  it.each([
    ['the event loop empties', ''],
    ['process.exit is called', 'process.exit(3);'],
    ['an error is not caught', 'throw new Error("boom");'],
  ])('writes every line when %s', (_name, ending) => {
    const out = run(
      `${prelude} for (let i = 0; i < 5; i++) log.info({ n: i, token: 'tok-secret', vendor: { api_key: 'tok-secret' } }, 'line'); ${ending}`,
    );
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.n)).toEqual([0, 1, 2, 3, 4]);
    expect(out).not.toContain('tok-secret');
  });

  it('writes a partly filled buffer within a second while the process runs', () => {
    const out = run(
      `${prelude} log.info('early'); setTimeout(() => { process.stdout.write('MARK\\n'); log.info('late'); }, 3000);`,
    );
    // 'early' was written by the flush timer (every second), before the marker written directly 3 s later: the
    // 2 s between them leave room for a loaded machine (the flush's write is asynchronous, the marker's is not),
    // and a buffer written only at exit would still come after the marker.
    expect(out.indexOf('early')).toBeGreaterThanOrEqual(0);
    expect(out.indexOf('early')).toBeLessThan(out.indexOf('MARK'));
    expect(out.indexOf('late')).toBeGreaterThan(out.indexOf('MARK'));
  });
});
