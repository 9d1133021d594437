/**
 * Starts the loopback site builder (fake-builder-server.ts) as a child process
 * and drives it: the authorization step a person would do in a browser
 * (follows the provider's redirects with its cookies until the redirect URI
 * with `code` and `state`), the state the builder holds, and test controls.
 */
import { ChildProcess, fork } from 'node:child_process';
import path from 'node:path';

export const FAKE_CLIENT = {
  id: 'platform-client',
  secret: 'platform-secret-value-0123456789',
  redirectUri: 'http://127.0.0.1:9/sitebuilder/callback',
  scopes: 'offline_access blog.manage',
};

export interface BuilderState {
  drafts: { id: string; title: string; status: string; richContent: { nodes: unknown[] }; [k: string]: unknown }[];
  posts: { id: string; title: string; slug: string; [k: string]: unknown }[];
  files: { id: string; displayName: string; sizeInBytes: string; mimeType: string }[];
  issued: { access: string[]; refresh: string[] };
  requests: { method: string; path: string; status: number }[];
}

export interface FakeBuilder {
  oauthUrl: string;
  apiUrl: string;
  /** Environment of a platform process configured for this builder. */
  env(): Record<string, string>;
  /** Plays the site owner in the browser: follows the authorization URL to the redirect URI. */
  authorize(authorizationUrl: string): Promise<{ code: string; state: string | null }>;
  state(): Promise<BuilderState>;
  behaviour(b: {
    holdDraftCreateMs?: number;
    fail?: { method: string; pathPrefix: string; status: number; body: unknown; times?: number };
    /** Lifetime of the access tokens and authorization codes issued from now on. */
    accessTtlSeconds?: number;
    codeTtlSeconds?: number;
  }): Promise<void>;
  /** The site owner removes the app at the builder: every token issued stops working. */
  revokeAll(): Promise<void>;
  stop(): Promise<void>;
}

export async function startFakeBuilder(opts: { accessTtlSeconds?: number; codeTtlSeconds?: number } = {}) {
  const child: ChildProcess = fork(path.join(__dirname, 'fake-builder-server.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env: {
      ...process.env,
      FAKE_BUILDER_CLIENT_ID: FAKE_CLIENT.id,
      FAKE_BUILDER_CLIENT_SECRET: FAKE_CLIENT.secret,
      FAKE_BUILDER_REDIRECT_URI: FAKE_CLIENT.redirectUri,
      FAKE_BUILDER_ACCESS_TTL: String(opts.accessTtlSeconds ?? 3600),
      FAKE_BUILDER_CODE_TTL: String(opts.codeTtlSeconds ?? 60),
    },
  });
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const ports = await new Promise<{ oauthPort: number; apiPort: number }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`fake builder did not start:\n${err}`)), 30000);
    child.on('message', (m: { type?: string; oauthPort: number; apiPort: number }) => {
      if (m?.type !== 'ready') return;
      clearTimeout(timer);
      resolve(m);
    });
    child.once('exit', (code) => reject(new Error(`fake builder exited (${code}):\n${err}`)));
  });
  const oauthUrl = `http://127.0.0.1:${ports.oauthPort}`;
  const apiUrl = `http://127.0.0.1:${ports.apiPort}`;
  const post = (p: string, body: unknown) =>
    fetch(`${apiUrl}${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const builder: FakeBuilder = {
    oauthUrl,
    apiUrl,
    env: () => ({
      SITEBUILDER_CLIENT_ID: FAKE_CLIENT.id,
      SITEBUILDER_CLIENT_SECRET: FAKE_CLIENT.secret,
      SITEBUILDER_AUTHORIZE_URL: `${oauthUrl}/auth`,
      SITEBUILDER_TOKEN_URL: `${oauthUrl}/token`,
      SITEBUILDER_REVOKE_URL: `${oauthUrl}/token/revocation`,
      SITEBUILDER_API_BASE_URL: apiUrl,
      SITEBUILDER_REDIRECT_URI: FAKE_CLIENT.redirectUri,
      SITEBUILDER_SCOPES: FAKE_CLIENT.scopes,
    }),
    async authorize(authorizationUrl) {
      const jar = new Map<string, string>();
      let url = authorizationUrl;
      for (let i = 0; i < 12; i++) {
        if (url.startsWith(FAKE_CLIENT.redirectUri)) {
          const q = new URL(url).searchParams;
          if (!q.get('code')) throw new Error(`authorization refused: ${url}`);
          return { code: q.get('code')!, state: q.get('state') };
        }
        const r = await fetch(url, {
          redirect: 'manual',
          headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
        });
        for (const c of r.headers.getSetCookie()) {
          const [kv] = c.split(';');
          const at = kv.indexOf('=');
          jar.set(kv.slice(0, at), kv.slice(at + 1));
        }
        const loc = r.headers.get('location');
        if (!loc) throw new Error(`authorization stopped at ${url}: HTTP ${r.status} ${await r.text()}`);
        url = new URL(loc, url).toString();
      }
      throw new Error('too many redirects in the authorization');
    },
    async state() {
      return (await (await fetch(`${apiUrl}/__test/state`)).json()) as BuilderState;
    },
    async behaviour(b) {
      await post('/__test/behaviour', b);
    },
    async revokeAll() {
      await post('/__test/revoke-all', {});
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
  return builder;
}
