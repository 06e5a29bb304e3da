import { spawn } from 'node:child_process';
import { setProcessGroupListener } from './processRunner';

/**
 * A tiny `/bin/sh` process that outlives a host killed without warning (`kill -9`, OOM) and
 * then kills the process groups the host's hooks and Bash calls were running in. The host
 * writes `+<pgid>` / `-<pgid>` lines on a pipe as groups start and end; when the pipe closes
 * — the host exited, however it died — the watchdog SIGKILLs every group still listed. It
 * runs in its own process group and ignores SIGINT/SIGHUP, so Ctrl+C or a closed terminal
 * does not take it down before the host. Limits: a child that left its group (setsid) is not
 * found; on Windows there are no process groups and no watchdog.
 */

/** The watchdog's script: keep the live list, then kill what is left when stdin ends. */
const WATCHDOG_SCRIPT = [
  "trap '' INT HUP",
  "groups=' '",
  'while IFS= read -r line; do',
  '  case $line in',
  '    +*) groups="$groups${line#+} " ;;',
  '    -*) id=${line#-}; case $groups in *" $id "*) groups="${groups%% $id *} ${groups#* $id }" ;; esac ;;',
  '  esac',
  'done',
  'for id in $groups; do kill -s KILL -- "-$id" 2>/dev/null; done',
].join('\n');

/** A running watchdog. */
export interface ProcessGroupWatchdog {
  /** The watchdog's own pid (for tests and diagnostics). */
  readonly pid: number;
  /** Stops reporting groups and lets the watchdog exit (after killing any group still listed). */
  close(): void;
}

/**
 * Starts the watchdog and reports every process group started by the shared process runner
 * to it. Returns undefined where it cannot run (Windows, no /bin/sh); the host's own exit
 * hook still kills the groups whenever the host exits normally or by a handled signal.
 * It never keeps the host's event loop alive.
 */
export function startProcessGroupWatchdog(shell = '/bin/sh'): ProcessGroupWatchdog | undefined {
  if (process.platform === 'win32') return undefined;
  let child;
  try {
    child = spawn(shell, ['-c', WATCHDOG_SCRIPT], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
  } catch {
    return undefined;
  }
  const { stdin, pid } = child;
  if (pid === undefined || stdin === null) return undefined;
  let open = true;
  const send = (line: string): void => {
    if (open) stdin.write(line);
  };
  stdin.on('error', () => {
    // The watchdog died (someone killed it): stop writing; the exit hook remains.
    open = false;
  });
  child.on('error', () => {
    open = false;
  });
  child.unref();
  (stdin as unknown as { unref?: () => void }).unref?.();
  setProcessGroupListener({ added: (id) => send(`+${id}\n`), removed: (id) => send(`-${id}\n`) });
  return {
    pid,
    close() {
      if (!open) return;
      setProcessGroupListener(undefined);
      open = false;
      stdin.end();
    },
  };
}
