/**
 * A real mail server for tests: GreenMail standalone (SMTP + IMAP, Java,
 * from Maven Central via scripts/greenmail/install) started by the test on
 * free loopback ports and stopped after it. Users are created on the fly for
 * any recipient (login = the address, password = the address); the sender
 * mailbox is given with its own password. Helpers read a mailbox over IMAP,
 * hand a message to SMTP, and append a raw message to a mailbox.
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import nodemailer, { SendMailOptions } from 'nodemailer';
import { ImapFlow } from 'imapflow';
import { freePort } from './processes';
import { StopWaiting, waitFor } from './wait';

const root = path.resolve(__dirname, '../..');

export interface MailServer {
  smtpPort: number;
  imapPort: number;
  /** OUTREACH_SMTP_URL of the server (no authentication, no TLS: loopback). */
  smtpUrl: string;
  /** OUTREACH_IMAP_URL for a user of the server. */
  imapUrl(user: string, password?: string): string;
  /** Raw messages of a user's INBOX, oldest first. */
  messages(user: string, password?: string): Promise<string[]>;
  /** Hands a message to SMTP (as a lead replying would). */
  deliver(m: SendMailOptions): Promise<void>;
  /** Puts a raw RFC 5322 message straight into a user's INBOX (a bounce report, an auto-reply). */
  append(user: string, raw: string, password?: string): Promise<void>;
  output(): string;
  stop(): Promise<void>;
}

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const c = connect(port, '127.0.0.1');
    c.once('connect', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });

/** The GreenMail jar, installed by the project's script when missing. */
export function greenmailJar(): string {
  return execFileSync(path.join(root, 'scripts/greenmail/install'), { cwd: root, encoding: 'utf8' }).trim();
}

export async function startMailServer(users: { email: string; password: string }[] = []): Promise<MailServer> {
  const jar = greenmailJar();
  if (!existsSync(jar)) throw new Error(`GreenMail jar missing after install: ${jar}`);
  const [smtpPort, imapPort, apiPort] = [await freePort(), await freePort(), await freePort()];
  const props = [
    `-Dgreenmail.smtp.port=${smtpPort}`,
    `-Dgreenmail.imap.port=${imapPort}`,
    '-Dgreenmail.hostname=127.0.0.1',
    `-Dgreenmail.api.port=${apiPort}`,
    '-Dgreenmail.api.hostname=127.0.0.1',
    '-Dgreenmail.users.login=email',
    ...(users.length
      ? [
          `-Dgreenmail.users=${users.map((u) => `${u.email.split('@')[0]}:${u.password}@${u.email.split('@')[1]}`).join(',')}`,
        ]
      : []),
  ];
  let out = '';
  const child: ChildProcess = spawn('java', ['-Xmx256m', ...props, '-jar', jar], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  await waitFor(
    'GreenMail to listen',
    async () => {
      if (child.exitCode !== null) throw new StopWaiting(`GreenMail exited:\n${out}`);
      return (await portOpen(smtpPort)) && (await portOpen(imapPort));
    },
    60000,
    200,
    () => `its output:\n${out}`,
  ).catch((err) => {
    child.kill('SIGKILL');
    throw err;
  });
  const passwordOf = (user: string, password?: string) =>
    password ?? users.find((u) => u.email === user)?.password ?? user;
  const imap = async <T>(user: string, password: string | undefined, work: (c: ImapFlow) => Promise<T>) => {
    const c = new ImapFlow({
      host: '127.0.0.1',
      port: imapPort,
      secure: false,
      doSTARTTLS: false,
      auth: { user, pass: passwordOf(user, password) },
      logger: false,
    });
    await c.connect();
    try {
      return await work(c);
    } finally {
      await c.logout().catch(() => c.close());
    }
  };
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true });
  return {
    smtpPort,
    imapPort,
    smtpUrl: `smtp://127.0.0.1:${smtpPort}?starttls=never`,
    imapUrl: (user, password) =>
      `imap://${encodeURIComponent(user)}:${encodeURIComponent(passwordOf(user, password))}@127.0.0.1:${imapPort}?starttls=never`,
    messages: (user, password) =>
      imap(user, password, async (c) => {
        const lock = await c.getMailboxLock('INBOX');
        try {
          const out: string[] = [];
          if ((c.mailbox as { exists: number }).exists === 0) return out;
          for await (const m of c.fetch('1:*', { source: true })) out.push(m.source!.toString('utf8'));
          return out;
        } finally {
          lock.release();
        }
      }).catch((e) => {
        // A recipient that never received mail has no account yet.
        if (
          /authenticat|login/i.test(
            String((e as Error).message) + String((e as { responseText?: string }).responseText),
          )
        )
          return [];
        throw e;
      }),
    deliver: async (m) => {
      await transport.sendMail(m);
    },
    append: (user, raw, password) =>
      imap(user, password, async (c) => {
        await c.append('INBOX', raw);
      }),
    output: () => out,
    async stop() {
      transport.close();
      if (child.exitCode === null) child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
