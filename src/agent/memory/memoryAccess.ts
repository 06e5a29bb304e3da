import path from 'node:path';
import { realpathLenientSync } from '../../permissions/rulePaths';
import { isInsideDir } from '../tools/workspacePaths';

/**
 * Which memory files and `@` imports may be read, one resolver for the session-start load and
 * the nested (lazy) load. A repository controls every file in it, so project memory — the
 * CLAUDE.md, `.claude/CLAUDE.md`, CLAUDE.local.md, AGENTS.md and `.claude/rules` of a folder,
 * and everything they import — is read only where its real path (symlinks followed) stays
 * inside the memory's boundary, and never past a `Read()` deny or ask rule. A file outside the
 * boundary is read only when a person approved exactly that file (as Claude Code asks before an
 * external import); in Restricted Mode, or where no one can be asked, it is not read. The
 * user's and the policy's own memory (`~/.claude`, the managed folder) have no boundary: they
 * may import from anywhere, as the user wrote them.
 */

/** One file outside the project that project memory wants to read. */
export interface ExternalMemoryRequest {
  /** Where the file really is (symlinks followed): what would be read. */
  readonly file: string;
  /** The path as the memory named it (made absolute). */
  readonly given: string;
  /** The memory file whose `@` line imports it; absent for a memory file itself (a link out). */
  readonly importedBy?: string;
  /** The import as written, e.g. `@~/.ssh/id_rsa`. */
  readonly importRef?: string;
  /** The folder the memory was bound to. */
  readonly boundary: string;
}

/** Asks a person whether `request.file` may be read into the model's instructions; false when no one could say yes. */
export type ExternalMemoryApprover = (request: ExternalMemoryRequest, signal: AbortSignal) => Promise<boolean>;

/** What the access check is built from. */
export interface MemoryAccessOptions {
  /** The workspace root: project memory below it is bound to it. */
  readonly projectDir: string;
  /** The session's cwd: relative rule paths resolve against it. */
  readonly cwd: string;
  /** False in Restricted Mode (an untrusted workspace): nothing outside is read, no one is asked. */
  readonly trusted: boolean;
  /** The Read deny or ask rule that hides a file (as for Grep), or undefined. */
  readonly readDeniedBy?: (absPath: string, realPath: string, cwd: string) => string | undefined;
  /** Absent = nothing outside is read (headless: no one to ask). */
  readonly approve?: ExternalMemoryApprover;
}

/** The verdict on one file: read it from `real`, or why not (`problem` for the user, `note` for the model). */
export type MemoryAccessVerdict = { readonly ok: true } | { readonly ok: false; readonly problem: string; readonly note: string };

/** One file to check. */
export interface MemoryAccessTarget {
  readonly given: string;
  readonly real: string;
  /** Undefined = the user's or the policy's memory: no boundary, no rules. */
  readonly boundary: string | undefined;
  readonly importedBy?: string;
  readonly importRef?: string;
}

/**
 * The access check of one session. Answers are remembered for the session by real path, so a
 * reload (compaction, `/clear`) or a second nested folder importing the same file asks once.
 */
export class MemoryAccess {
  private readonly answers = new Map<string, Promise<boolean>>();
  private readonly realProject: string;

  constructor(private readonly o: MemoryAccessOptions) {
    this.realProject = realpathLenientSync(path.resolve(o.projectDir));
  }

  /**
   * The boundary of project memory found in folder `dir`: the project for a folder inside it;
   * the folder itself for an ancestor above the project (its files are not the workspace's, but
   * a workspace opened on a sub-folder of a clone has the clone's root above it).
   */
  boundaryOf(dir: string): string {
    const real = realpathLenientSync(path.resolve(dir));
    return isInsideDir(real, this.realProject) ? real : this.realProject;
  }

  /** May `t` be read? Never throws; an approver that fails counts as no. */
  async check(t: MemoryAccessTarget, signal: AbortSignal): Promise<MemoryAccessVerdict> {
    if (t.boundary === undefined) return { ok: true };
    const what = t.importedBy ? `${t.importedBy}: import ${t.importRef ?? t.given}` : t.given;
    // Where it really lands, unless the import or path already says so.
    const shown = t.importedBy ? (t.importRef ?? t.given).replace(/^@/, '') : t.given;
    const via = t.real !== shown ? ` (${t.real})` : '';
    const denied = this.o.readDeniedBy?.(t.given, t.real, this.o.cwd);
    if (denied !== undefined)
      return { ok: false, problem: `${what}${via} is hidden by permission rule ${denied}; not loaded`, note: noteFor(t, `permission rule ${denied} hides it`) };
    if (isInsideDir(t.boundary, t.real)) return { ok: true };
    const where = `outside the project ${t.boundary}`;
    if (!this.o.trusted)
      return {
        ok: false,
        problem: `${what}${via} is ${where}; not loaded in Restricted Mode`,
        note: noteFor(t, `it is ${where} and the workspace is not trusted`),
      };
    if (!this.o.approve)
      return {
        ok: false,
        problem: `${what}${via} is ${where}; not loaded (no one can approve it here)`,
        note: noteFor(t, `it is ${where} and was not approved`),
      };
    if (await this.approved(t, signal)) return { ok: true };
    return { ok: false, problem: `${what}${via} is ${where}; not loaded (not approved)`, note: noteFor(t, `it is ${where} and was not approved`) };
  }

  private approved(t: MemoryAccessTarget, signal: AbortSignal): Promise<boolean> {
    const known = this.answers.get(t.real);
    if (known) return known;
    const request: ExternalMemoryRequest = {
      file: t.real,
      given: t.given,
      boundary: t.boundary ?? this.realProject,
      ...(t.importedBy ? { importedBy: t.importedBy } : {}),
      ...(t.importRef ? { importRef: t.importRef } : {}),
    };
    const answer = (this.o.approve?.(request, signal) ?? Promise.resolve(false)).then(
      (yes) => yes === true && !signal.aborted,
      () => false,
    );
    this.answers.set(t.real, answer);
    return answer;
  }
}

/** The model's note: names the import or file, never its content. */
function noteFor(t: MemoryAccessTarget, why: string): string {
  return t.importedBy ? `${t.importRef ?? t.given} in ${t.importedBy} was not imported: ${why}.` : `${t.given} was not loaded: ${why}.`;
}

/** The text of a memory import request, for a dialog or a terminal question. */
export function describeExternalMemory(request: ExternalMemoryRequest): string {
  const real = request.file !== request.given ? ` (really ${request.file})` : '';
  return request.importedBy
    ? `${request.importedBy} imports ${request.importRef ?? request.given}${real}, outside the project ${request.boundary}. Allow this file into the agent's instructions?`
    : `The memory file ${request.given} links to ${request.file}, outside the project ${request.boundary}. Allow this file into the agent's instructions?`;
}
