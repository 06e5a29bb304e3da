import { randomUUID } from 'node:crypto';
import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { reportedGroupsLive, setProcessGroupListener, setProcessGroupListenerStarter } from './processGroups';
import { childProcess } from './lazyBuiltins';

/**
 * A tiny `/bin/sh` process that outlives a host killed without warning (`kill -9`, OOM) and
 * then kills the process groups the host's hooks and Bash calls were running in. The host
 * writes `+<pgid>` / `-<pgid>` lines, as groups start and end, to a file only the two of them
 * hold (created private, then unlinked before the watchdog starts; the watchdog has it as fd 3);
 * when the host's pipe to the watchdog closes — the host exited, however it died — the
 * watchdog reads the file and SIGKILLs every group still listed. A group is listed before its
 * shell runs a single command, and listing it never wakes the watchdog. Where no such file can
 * be made, the lines go on the pipe, one write per turn of the event loop. The watchdog runs in
 * its own process group and ignores SIGINT/SIGHUP, so Ctrl+C or a closed terminal does not take
 * it down before the host. Every shell the host starts carries a marker variable, so after a
 * crash the watchdog also finds shells it was never told about and children that left their
 * group (setsid). Limits: a child that also cleared its environment escapes after a crash;
 * after a clean exit only the groups are killed; on Windows there are no process groups and no
 * watchdog.
 */

/** Name of the variable that marks every shell started while a watchdog runs. */
export const WATCHDOG_MARK_VARIABLE = 'HOOKWISE_WATCHDOG';

/**
 * The watchdog's script (`$1` = the mark `HOOKWISE_WATCHDOG=<token>`, `$2` = `fd3` when the
 * group file is its fd 3): wait for stdin to end (lines there are groups too, and `bye`), then
 * take the file's lines and kill what is still listed. Without the host's `bye` (it died), it
 * also kills every process whose environment carries the mark — a shell forked in the instant
 * before the host could report its group, or one that left its group — scanning twice to catch
 * a child forked during the first pass (Linux /proc only).
 */
const WATCHDOG_SCRIPT = [
  "trap '' INT HUP",
  "groups=' '",
  'clean=',
  'take() {',
  '  case $1 in',
  '    +*) groups="$groups${1#+} " ;;',
  '    -*) id=${1#-}; case $groups in *" $id "*) groups="${groups%% $id *} ${groups#* $id }" ;; esac ;;',
  '    bye) clean=1 ;;',
  '  esac',
  '}',
  'while IFS= read -r line; do take "$line"; done',
  '[ "$2" = fd3 ] && while IFS= read -r line <&3; do take "$line"; done',
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
 * An open file for the group list that no path names: made 0600 in a fresh 0700 folder under
 * the temp directory, then unlinked with its folder at once, so nothing is left on disk even
 * when the host is killed. Undefined when none can be made (the lines then go on the pipe).
 */
function openUnlinkedFile(): number | undefined {
  let dir: string | undefined;
  try {
    dir = mkdtempSync(path.join(os.tmpdir(), 'hookwise-watchdog-'));
    const file = path.join(dir, 'groups');
    const fd = openSync(file, 'w+', 0o600);
    unlinkSync(file);
    return fd;
  } catch {
    return undefined;
  } finally {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  }
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
  let fd = openUnlinkedFile();
  let child;
  try {
    child = childProcess().spawn(shell, ['-c', WATCHDOG_SCRIPT, 'hookwise-watchdog', mark, fd === undefined ? '' : 'fd3'], {
      stdio: fd === undefined ? ['pipe', 'ignore', 'ignore'] : ['pipe', 'ignore', 'ignore', fd],
      detached: true,
    });
  } catch {
    child = undefined;
  }
  if (child?.pid === undefined || !child.stdin) {
    if (fd !== undefined) closeSync(fd);
    return undefined;
  }
  const { stdin, pid } = child;
  let open = true;
  let closed = false;
  // Written at explicit positions (pwrite): the file offset the watchdog shares stays at 0,
  // where it starts reading. When no group is left the file is emptied, so it stays small.
  let position = 0;
  const toFile = (file: number, line: string): void => {
    try {
      if (!reportedGroupsLive()) {
        ftruncateSync(file);
        position = 0;
      } else position += writeSync(file, line, position);
    } catch {
      // Cannot happen short of a full disk: the lines go on the pipe from now on.
      closeSync(file);
      fd = undefined;
      toPipe(line);
    }
  };
  let pending = '';
  const flush = (): void => {
    const lines = pending;
    pending = '';
    if (open && lines !== '') stdin.write(lines);
  };
  const toPipe = (line: string): void => {
    if (!open) return;
    if (pending === '') setImmediate(flush).unref();
    pending += line;
  };
  const send = (line: string): void => (fd !== undefined ? toFile(fd, line) : toPipe(line));
  stdin.on('error', () => {
    // The watchdog died (someone killed it): stop writing; the exit hook remains.
    open = false;
  });
  child.on('error', () => {
    open = false;
  });
  child.unref();
  (stdin as unknown as { unref?: () => void }).unref?.();
  setProcessGroupListener({
    added: (id) => send(`+${id}\n`),
    removed: (id) => send(`-${id}\n`),
    childEnv: { [WATCHDOG_MARK_VARIABLE]: token },
  });
  return {
    pid,
    close() {
      if (closed) return;
      closed = true;
      setProcessGroupListener(undefined);
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
      if (!open) return;
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
