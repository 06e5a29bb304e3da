import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readSync, realpathSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { quoteForShell } from '../../shared/shellInvocation';

/** Longest `pwd` output read back (a path; anything longer is not one). */
const MAX_PWD_BYTES = 16 * 1024;

/**
 * The Bash tool's working directory, kept from call to call as in Claude Code (`cd` carries
 * over). One per session, shared by its agents. A directory outside `root` is not kept: the
 * shell goes back to `root` and the model is told so.
 */
export class ShellCwd {
  private dir: string;
  /** `root` with symlinks resolved: `pwd -P` reports real paths. */
  private readonly realRoot: string;

  constructor(readonly root: string) {
    this.dir = root;
    this.realRoot = realOrSelf(root);
  }

  /** Where the next command starts. */
  get current(): string {
    return this.dir;
  }

  /**
   * Takes the directory a command ended in. Returns what changed (old and new directory,
   * and a note for the model when the shell was put back at the root), or undefined.
   */
  update(ended: string | undefined): { readonly from: string; readonly to: string; readonly note?: string } | undefined {
    if (ended === undefined) return undefined;
    // Spelled under the root as given, so a workspace reached through a symlink keeps its spelling.
    const inReal = isInside(ended, this.realRoot);
    const to = inReal ? path.join(this.root, path.relative(this.realRoot, ended)) : ended;
    if (to === this.dir || !isDirectory(to)) return undefined;
    const from = this.dir;
    if (!inReal && !isInside(to, this.root)) {
      this.dir = this.root;
      return { from, to: this.root, note: `Shell cwd was reset to ${this.root}` };
    }
    this.dir = to;
    return { from, to };
  }
}

/**
 * Wraps a POSIX shell command so that, however it ends (`exit` included), the shell writes
 * its final directory to a side file: the command's own stdout and stderr stay untouched.
 * `read()` returns that directory (undefined if the shell was killed first) and deletes the file.
 */
export function trackCwd(command: string): { readonly command: string; read(): string | undefined } {
  const file = path.join(os.tmpdir(), `hookwise-cwd-${randomUUID()}`);
  // The trap runs on every normal exit of the shell; it is set before the command so an `exit` in it still reports.
  const wrapped = `trap 'pwd -P > ${quoteForShell(file)} 2>/dev/null' EXIT\n${command}`;
  return {
    command: wrapped,
    read() {
      try {
        return readPwd(file);
      } finally {
        rmSync(file, { force: true });
      }
    },
  };
}

function readPwd(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const buffer = Buffer.alloc(MAX_PWD_BYTES);
    const n = readSync(fd, buffer, 0, MAX_PWD_BYTES, 0);
    const text = buffer
      .subarray(0, n)
      .toString('utf8')
      .replace(/\r?\n$/, '');
    return n < MAX_PWD_BYTES && path.isAbsolute(text) ? text : undefined;
  } finally {
    closeSync(fd);
  }
}

function realOrSelf(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

function isInside(dir: string, root: string): boolean {
  const rel = path.relative(root, dir);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
