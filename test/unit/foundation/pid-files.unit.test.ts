/**
 * scripts/lib.sh's view of a recorded process (pid_alive, same_process): running while its pid and start time match;
 * not running once it has exited, also before its parent reaps it (a zombie). The processes `scripts/platform` starts
 * are reparented to the machine's init, which on this machine kind reaps an exited one only ~1.8 s later: read as
 * alive, every stop waited for it (`scripts/platform down` spent ~12 of its 20 s so).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const LIB = path.resolve(__dirname, '../../../scripts/lib.sh');

/** `pid_alive NAME` after record_pid NAME PID, in a private pid folder: 'alive' or 'gone'. */
function pidAlive(pid: number): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pids-'));
  try {
    const script = `source "$1"; PID_DIR="$2"; record_pid probe "$3"; pid_alive probe && echo alive || echo gone`;
    return execFileSync('bash', ['-c', script, 'bash', LIB, dir, String(pid)], { encoding: 'utf8' }).trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const stateOf = (pid: number) => /^\d+ \(.*\) (\S) /.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1];

describe('scripts/lib.sh: is a recorded process running', () => {
  it('a running process is; an exited one whose parent has not reaped it (a zombie) is not', async () => {
    // The parent starts a child that exits when it reads a line, then becomes a long sleep that never reaps it: the
    // child stays a zombie. The child exits when the test says so (it reads the parent's stdin through fd 3: a background
    // command's own stdin is /dev/null), not after a delay a loaded machine could outrun.
    const parent = spawn('bash', ['-c', 'exec 3<&0; (read -r _ <&3; exit 0) & echo $!; exec sleep 30 3<&-'], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    try {
      const child = Number(await new Promise<string>((r) => parent.stdout!.once('data', (d) => r(String(d)))));
      expect(pidAlive(child)).toBe('alive');
      parent.stdin!.write('\n');
      for (let i = 0; i < 200 && stateOf(child) !== 'Z'; i++) await new Promise((r) => setTimeout(r, 50));
      expect(stateOf(child)).toBe('Z'); // the precondition: it exited and nobody reaped it
      expect(pidAlive(child)).toBe('gone');
      expect(pidAlive(parent.pid!)).toBe('alive');
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
