/**
 * Runs the media tools (ffmpeg, ffprobe, espeak-ng) as child processes.
 * Cancellation is real: when the signal aborts (an activity's cancellation
 * signal, a time-out) the child is killed with SIGKILL and the promise
 * rejects with the signal's reason once the child has exited, so the caller
 * can remove its partial output knowing nothing writes it any more.
 */
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';

/**
 * Niceness of every tool's process. Renders are batch work: when the machine is busy the kernel gives the CPU to
 * the worker's own event loop, PostgreSQL and the API first, so a burst of renders makes renders slower rather than
 * every other user's short tasks (docs/api.md, "Fair use of heavy work"). On an idle machine it changes nothing.
 */
export const TOOL_NICENESS = 10;

/** A media tool failed or is missing; `code` INTERNAL_ERROR (the failure table's unexpected failure). */
export class MediaToolError extends Error {
  readonly code = 'INTERNAL_ERROR';
  constructor(
    readonly tool: string,
    message: string,
  ) {
    super(message);
    this.name = 'MediaToolError';
  }
}

/** A media input that cannot be used (wrong codec, too long, too large, unreadable): INVALID_REQUEST, not retried. */
export class MediaInputError extends Error {
  readonly code = 'INVALID_REQUEST';
  constructor(message: string) {
    super(message);
    this.name = 'MediaInputError';
  }
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Written to the child's stdin, then stdin is closed. */
  input?: string;
  /** Called with each complete line of stdout (ffmpeg's `-progress pipe:1`). */
  onLine?: (line: string) => void;
  /** Keep stdout (default true; off for tools whose stdout is only progress). */
  keepStdout?: boolean;
}

export interface RunResult {
  stdout: string;
  stderr: string;
}

/** How to install each tool, for the error a missing binary gives. */
const HINT: Record<string, string> = {
  ffmpeg: 'install the Debian package ffmpeg (scripts/media-tools) or set FFMPEG_PATH',
  ffprobe: 'install the Debian package ffmpeg (scripts/media-tools) or set FFPROBE_PATH',
  'espeak-ng': 'install the Debian package espeak-ng (scripts/media-tools) or set ESPEAK_PATH',
};

export function runTool(bin: string, args: string[], opts: RunOptions = {}): Promise<RunResult> {
  const name = bin.split('/').pop() ?? bin;
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(opts.signal.reason);
    const child = spawn(bin, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    if (child.pid !== undefined)
      try {
        setPriority(child.pid, TOOL_NICENESS);
      } catch {
        /* the process already exited, or the platform does not allow it: it runs at the default priority */
      }
    let stdout = '';
    let stderr = '';
    let pending = '';
    let aborted = false;
    const onAbort = () => {
      aborted = true;
      child.kill('SIGKILL');
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      if (opts.keepStdout !== false) stdout += d;
      if (opts.onLine) {
        pending += d;
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const l of lines) opts.onLine(l);
      }
    });
    // Keep the tail only: ffmpeg can write megabytes of warnings on a long render.
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-64 * 1024)));
    child.stdin.on('error', () => {}); // a tool that exits before reading all of its input
    child.stdin.end(opts.input ?? '');
    child.on('error', (e: NodeJS.ErrnoException) => {
      opts.signal?.removeEventListener('abort', onAbort);
      reject(
        e.code === 'ENOENT'
          ? new MediaToolError(name, `${name} is not installed (${bin} not found): ${HINT[name] ?? 'install it'}`)
          : new MediaToolError(name, `${name} could not start: ${e.message}`),
      );
    });
    child.on('close', (code, sig) => {
      opts.signal?.removeEventListener('abort', onAbort);
      if (aborted) return reject(opts.signal!.reason);
      if (code === 0) return resolve({ stdout, stderr });
      const tail = stderr.trim().split('\n').slice(-6).join(' | ');
      reject(new MediaToolError(name, `${name} failed (${sig ?? `exit ${code}`}): ${tail}`));
    });
  });
}
