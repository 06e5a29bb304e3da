import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Absolute path of a fixture script: test/fixtures/hooks/<event>/<scenario>.sh. */
export function fixture(event: string, scenario: string): string {
  return path.resolve(__dirname, '../fixtures/hooks', event, `${scenario}.sh`);
}

/**
 * True while `pid` is a live process. A zombie (state Z, exited but not yet reaped by init)
 * counts as dead: it holds no resources but `process.kill(pid, 0)` would still succeed.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    // Gone between the two checks, or no procfs at all (macOS), where signal 0 is the only word.
    return !existsSync('/proc/self');
  }
}

/** Polls until none of `pids` is alive or `withinMs` passes; returns the survivors. */
export async function survivors(pids: readonly number[], withinMs = 1000): Promise<number[]> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const alive = pids.filter(isAlive);
    if (alive.length === 0 || Date.now() > deadline) return alive;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A temp dir with a pid file the fixtures append to (via `HOOK_PIDS_FILE=… <fixture>`). */
export class PidFile {
  readonly dir = mkdtempSync(path.join(tmpdir(), 'hookwise-pids-'));
  readonly file = path.join(this.dir, 'pids');

  /** The command string that runs `script` with HOOK_PIDS_FILE pointing here. */
  command(script: string): string {
    return `HOOK_PIDS_FILE='${this.file}' '${script}'`;
  }

  pids(): number[] {
    try {
      return readFileSync(this.file, 'utf8').split('\n').filter(Boolean).map(Number);
    } catch {
      return [];
    }
  }

  dispose(): void {
    for (const pid of this.pids()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone: the expected case
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
