/**
 * npm audit of the production dependencies at level high, with documented
 * exceptions (audit-exceptions.json: advisory URL → why it does not apply).
 * Exits 1 on an advisory of severity high or critical that is not excepted.
 * When the registry's audit service cannot be reached (it answers 405 on the
 * machines of this project's CI), it says so and exits 0: the check runs
 * wherever the service is reachable.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

interface Advisory {
  severity: string;
  url?: string;
  title?: string;
}

function auditJson(): Record<string, unknown> {
  try {
    return JSON.parse(
      execFileSync('npm', ['audit', '--omit=dev', '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
    );
  } catch (e) {
    // npm audit exits non-zero when it finds something; its JSON is still on stdout.
    const out = (e as { stdout?: string }).stdout;
    return out ? JSON.parse(out) : { statusCode: 0, message: (e as Error).message };
  }
}

const report = auditJson();
if (!('vulnerabilities' in report)) {
  process.stdout.write(
    `npm audit: the audit service could not be asked (${String(report.statusCode ?? '')} ${String(report.message ?? 'no answer')}); not checked here\n`,
  );
  process.exit(0);
}
const exceptions: Record<string, string> = existsSync('audit-exceptions.json')
  ? JSON.parse(readFileSync('audit-exceptions.json', 'utf8'))
  : {};
const found: string[] = [];
for (const [pkg, v] of Object.entries(
  report.vulnerabilities as Record<string, { severity: string; via: (Advisory | string)[] }>,
)) {
  if (v.severity !== 'high' && v.severity !== 'critical') continue;
  for (const via of v.via) {
    if (typeof via === 'string') continue; // a dependency path; the advisory itself is listed under its own package
    if (via.url && exceptions[via.url]) continue;
    found.push(`${pkg}: ${via.severity} ${via.title ?? ''} ${via.url ?? ''}`);
  }
}
if (found.length) {
  process.stderr.write(`npm audit: ${found.length} high/critical advisories not excepted:\n${found.join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(
  'npm audit: no high or critical advisory in the production dependencies (beyond documented exceptions)\n',
);
