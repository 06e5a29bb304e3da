import { randomUUID } from 'node:crypto';
import { setProcessGroupListener, setProcessGroupListenerStarter } from './processGroups';
import { childProcess } from './lazyBuiltins';

/**
 * A tiny `/bin/sh` process that outlives a host killed without warning (`kill -9`, OOM) and
 * then kills the process groups the host's hooks and Bash calls were running in. The host
 * writes `+<pgid>` / `-<pgid>` lines on a pipe as groups start and end; when the pipe closes
 * — the host exited, however it died — the watchdog SIGKILLs every group still listed. It
 * runs in its own process group and ignores SIGINT/SIGHUP, so Ctrl+C or a closed terminal
 * does not take it down before the host. Every shell the host starts carries a marker
 * variable, so after a crash the watchdog also finds shells it was never told about (forked
 * in the instant before the host reported them) and children that left their group (setsid).
 * Limits: a child that also cleared its environment escapes after a crash; after a clean
 * exit only the groups are killed; on Windows there are no process groups and no watchdog.
 */

/** Name of the variable that marks every shell started while a watchdog runs. */
export const WATCHDOG_MARK_VARIABLE = 'HOOKWISE_WATCHDOG';

/**
 * The watchdog's script (`$1` = the mark `HOOKWISE_WATCHDOG=<token>`): keep the live list,
 * then kill what is left when stdin ends. Without the host's `bye` (it died), it also kills
 * every process whose environment carries the mark — a shell forked in the instant before
 * the host could report its group, or one that left its group — scanning twice to catch a
 * child forked during the first pass (Linux /proc only).
 */
const WATCHDOG_SCRIPT = [
  "trap '' INT HUP",
  "groups=' '",
  'clean=',
  'while IFS= read -r line; do',
  '  case $line in',
  '    +*) groups="$groups${line#+} " ;;',
  '    -*) id=${line#-}; case $groups in *" $id "*) groups="${groups%% $id *} ${groups#* $id }" ;; esac ;;',
  '    bye) clean=1 ;;',
  '  esac',
  'done',
  'for id in $groups; do kill -s KILL -- "-$id" 2>/dev/null; done',
  '[ -n "$clean" ] || [ ! -r /proc/self/environ ] && exit 0',
  'for pass in 1 2; do',
  '  for f in $(grep -lzxF -- "$1" /proc/[0-9]*/environ 2>/dev/null); do p=${f#/proc/}; kill -s KILL "${p%/environ}" 2>/dev/null; done',
  'done',
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
  const token = randomUUID();
  const mark = `${WATCHDOG_MARK_VARIABLE}=${token}`;
  let child;
  try {
    child = childProcess().spawn(shell, ['-c', WATCHDOG_SCRIPT, 'hookwise-watchdog', mark], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
  } catch {
    return undefined;
  }
  const { stdin, pid } = child;
  if (pid === undefined || stdin === null) return undefined;
  let open = true;
  // The lines of one turn of the event loop go as one write (five hooks start and end at once):
  // one wake-up of the watchdog and one pipe write instead of one per group. A group reported a
  // turn late is still found after a crash by the mark its shell carries.
  let pending = '';
  const flush = (): void => {
    const lines = pending;
    pending = '';
    if (open && lines !== '') stdin.write(lines);
  };
  const send = (line: string): void => {
    if (!open) return;
    if (pending === '') setImmediate(flush).unref();
    pending += line;
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
  setProcessGroupListener({ added: (id) => send(`+${id}\n`), removed: (id) => send(`-${id}\n`), childEnv: { [WATCHDOG_MARK_VARIABLE]: token } });
  return {
    pid,
    close() {
      if (!open) return;
      setProcessGroupListener(undefined);
      flush();
      open = false;
      // A clean stop: the host killed its groups itself, no scan for strays needed.
      stdin.end('bye\n');
    },
  };
}

/** A watchdog that starts with the first launched process; see {@link armProcessGroupWatchdog}. */
export interface ArmedProcessGroupWatchdog {
  /** The running watchdog, once a process was launched (undefined before, or where it cannot run). */
  readonly started: ProcessGroupWatchdog | undefined;
  /** Disarms it, or closes it if it started. */
  close(): void;
}

/**
 * Like {@link startProcessGroupWatchdog}, but the watchdog is spawned only just before the
 * first hook, Bash command or MCP server starts: a run that starts none (a headless answer
 * with no tools) does not pay a spawn at start-up. Every launcher reads the child
 * environment first (`withGroupChildEnv`), so the first shell already carries the mark.
 */
export function armProcessGroupWatchdog(shell = '/bin/sh'): ArmedProcessGroupWatchdog {
  let started: ProcessGroupWatchdog | undefined;
  let closed = false;
  setProcessGroupListenerStarter(() => {
    if (!closed) started = startProcessGroupWatchdog(shell);
  });
  return {
    get started() {
      return started;
    },
    close() {
      closed = true;
      setProcessGroupListenerStarter(undefined);
      started?.close();
    },
  };
}
