/**
 * Operators' bootstrap tool for identity (users, plans, API keys).
 *
 *   npm run cli -- users create --plan free [--email x] [--admin] [--environment development|production] [--json]
 *       makes a user and a first API key (development unless --environment production); prints the user id and the key (shown once)
 *   npm run cli -- users set-plan <user_id> <free|basic|pro|enterprise> [--json]
 *   npm run cli -- keys create <user_id> [--name N] [--environment development|production] [--json]
 *
 * The events are appended to the event store; the key works at once (the API
 * reads a credential's own stream while the identity projection has not
 * applied it). The tool then waits up to --wait seconds (default 20) for the
 * projection and says so when it did not catch up (projector not running),
 * because the key is only listed under /api/settings/api-keys once it has.
 * Reads DATABASE_URL like every process, and applies pending migrations first.
 */
import { userInfo } from 'node:os';
import { loadConfig, publicBaseUrl } from '../infra/config';
import { createDb } from '../infra/db/knex';
import { createEventStore } from '../infra/eventstore';
import type { RecordedEvent } from '../infra/eventstore/port';
import { waitForProjection } from '../projections/consistency';
import { isPlanName } from '../domain/plans';
import { changePlan, createApiKey, createUser, IdentityDeps } from '../api/identity/commands';
import { migrateLatest } from '../infra/db/migrate';
import { MIGRATIONS } from '../workers/migrations';
import { flags } from './args';

const USAGE = `usage:
  npm run cli -- users create --plan free|basic|pro|enterprise [--email E] [--admin] [--environment development|production] [--json]
  npm run cli -- users set-plan <user_id> <plan> [--json]
  npm run cli -- keys create <user_id> [--name N] [--environment development|production] [--json]`;

class UsageError extends Error {}

/** Who runs the tool: the login name (SUDO_USER when run with sudo), as the plan change's actor. */
function operatorName(): string {
  try {
    return process.env.SUDO_USER || userInfo().username || 'operator';
  } catch {
    return process.env.USER || 'operator';
  }
}

function plan(v: string | true | undefined) {
  if (typeof v !== 'string' || !isPlanName(v))
    throw new UsageError('--plan must be one of free, basic, pro, enterprise');
  return v;
}

function env(v: string | true | undefined) {
  if (v === undefined) return 'development' as const;
  if (v !== 'development' && v !== 'production')
    throw new UsageError('--environment must be development or production');
  return v;
}

async function main(): Promise<number> {
  const [area, cmd, ...rest] = process.argv.slice(2);
  const { positional, opts } = flags(rest);
  const config = loadConfig();
  const db = createDb({ url: config.DATABASE_URL, poolMax: 2, applicationName: 'identity-cli' });
  const d: IdentityDeps = { store: createEventStore(db) };
  const waitS = typeof opts.wait === 'string' ? Number(opts.wait) : 20;
  const out: Record<string, unknown> = {};
  const written: RecordedEvent[] = [];
  try {
    if (!['users', 'keys'].includes(area)) throw new UsageError(`unknown command: ${area ?? '(none)'}`);
    await migrateLatest(db, MIGRATIONS); // a first run may come before the API ever started
    if (area === 'users' && cmd === 'create') {
      const u = await createUser(d, {
        plan: plan(opts.plan),
        role: opts.admin ? 'admin' : 'user',
        ...(typeof opts.email === 'string' ? { email: opts.email } : {}),
      });
      const k = await createApiKey(d, u.value.user_id, {
        name: typeof opts.name === 'string' ? opts.name : 'cli',
        environment: env(opts.environment),
      });
      written.push(...u.events, ...k.events);
      Object.assign(out, {
        user_id: u.value.user_id,
        plan: opts.plan,
        role: opts.admin ? 'admin' : 'user',
        key_id: k.value.key_id,
        environment: k.value.environment,
        api_key: k.value.key,
      });
    } else if (area === 'users' && cmd === 'set-plan') {
      if (!positional[0]) throw new UsageError('user id missing');
      // The operator is named in the event (docs/security.md): the console's login name.
      const r = await changePlan(d, positional[0], plan(positional[1]), { kind: 'operator', id: operatorName() });
      written.push(...r.events);
      Object.assign(out, { user_id: positional[0], plan: r.value.plan });
    } else if (area === 'keys' && cmd === 'create') {
      if (!positional[0]) throw new UsageError('user id missing');
      const k = await createApiKey(d, positional[0], {
        name: typeof opts.name === 'string' ? opts.name : 'cli',
        environment: env(opts.environment),
      });
      written.push(...k.events);
      Object.assign(out, {
        user_id: positional[0],
        key_id: k.value.key_id,
        environment: k.value.environment,
        api_key: k.value.key,
      });
    } else {
      throw new UsageError(`unknown command: ${[area, cmd].filter(Boolean).join(' ') || '(none)'}`);
    }
    const last = written[written.length - 1];
    const projected = await waitForProjection(db, 'identity', last, { timeoutMs: waitS * 1000, intervalMs: 100 });
    out.projected = projected;
    if (opts.json) process.stdout.write(`${JSON.stringify(out)}\n`);
    else {
      for (const [k, v] of Object.entries(out)) if (k !== 'projected') process.stdout.write(`${k}: ${v}\n`);
      if (out.api_key) {
        process.stdout.write(
          `\nThe key is shown only now. Try it:\n  curl -H "Authorization: Bearer ${out.api_key}" ${publicBaseUrl(config)}/api/health\n`,
        );
      }
    }
    if (!projected) {
      process.stderr.write(
        `\nwarning: the identity projection has not applied these events within ${waitS} s — is the projector running ` +
          `(scripts/platform up, or npm run dev:relay and npm run dev:projector)? The key already authenticates ` +
          `(the API reads its events directly), but plan changes and key listings show only once the projector catches up.\n`,
      );
    }
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`${e.message}\n${USAGE}\n`);
      return 64;
    }
    throw e;
  } finally {
    await db.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`${(e as Error).stack ?? e}\n`);
    process.exit(1);
  },
);
