import type { ConfigDiagnostic } from '../../configFiles/configDiagnostic';
import type { JsonSegment } from '../../configFiles/jsonPath';
import type { HookActionContext } from '../hookAction';
import type { HookEvent } from '../hookEvent';
import type { HookOutcome } from '../hookOutcome';
import type { HookMatcher } from '../matchers/hookMatcher';

/**
 * Other agents' hook files, read natively (docs/formats/README.md). One adapter per format, one
 * folder per agent under src/hooks/formats/<agent>/, registered in formatRegistry.ts. Adding a
 * format is: write a {@link HookFormatAdapter}, add its id to {@link HOOK_FORMAT_IDS}, register it.
 * The loader, trust and approval, managed policy, Problems, Hook Runs and `hooks list|explain`
 * then handle its hooks like any other; the adapter only says what that agent means:
 *
 * - `locations`: where the agent reads its files (project and user), relative to a folder or home;
 * - `parse`: text → hooks + diagnostics; bounded like `.claude` files (formatJson.ts does that for
 *   JSON), every part it cannot carry over is a warning with file, line and JSON path, never dropped;
 * - per hook a {@link FormatBinding}: the Hookwise event it maps to, its native event and matcher,
 *   and plain-JSON `options` (they go into the approval hash, so a change asks again);
 * - `compileMatcher`: the agent's matcher syntax on the agent's own vocabulary;
 * - `translateInput`: the stdin JSON and env that agent sends (field names, casing, tool names);
 * - `interpret`: exit code and stdout read the way that agent reads them (fail-open or closed);
 * - `defaultTimeoutMs` and `failClosed`: the agent's defaults.
 *
 * Everything but `translateInput`'s env lookup is pure, so each part is unit-testable alone.
 */

/** Every format id; the second wave (codex, gemini, cline) adds its adapters to the registry. */
export const HOOK_FORMAT_IDS = ['copilot', 'cursor', 'windsurf', 'codex', 'gemini', 'cline'] as const;
/** One foreign hook format. */
export type HookFormatId = (typeof HOOK_FORMAT_IDS)[number];

/** Where an agent reads a hooks file: one file, or every `*.json` of a directory (sorted by name). */
export interface FormatLocation {
  readonly scope: 'user' | 'project';
  readonly kind: 'file' | 'directory';
  /** Relative to the workspace folder (project) or the home directory (user), `/`-separated. */
  readonly path: string;
}

/**
 * How one foreign hook runs, as plain data on the loaded hook (LoadedHook.format). `options` holds
 * whatever the adapter needs at run time (e.g. Cursor `failClosed`, Copilot's casing); it must be
 * JSON, because it is part of the approval key.
 */
export interface FormatBinding {
  readonly format: HookFormatId;
  /** The event as the agent names it, e.g. `preToolUse`, `beforeShellExecution`, `pre_run_command`. */
  readonly nativeEvent: string;
  /** The matcher as written in the agent's syntax (absent = every occurrence of the event). */
  readonly matcher?: string;
  /** Time limit in ms when written in the file (units converted by the adapter); absent = the format's default. */
  readonly timeoutMs?: number;
  readonly options?: Readonly<Record<string, string | number | boolean>>;
}

/** One hook the adapter found in a file. */
export interface FormatHookEntry {
  /** The Hookwise event it fires on. */
  readonly event: HookEvent;
  readonly binding: FormatBinding;
  /** The shell command it runs (with the agent's own path rules already applied, e.g. Copilot `bash` vs `powershell`). */
  readonly command: string;
  /** Working directory relative to the project (Copilot `cwd`, Windsurf `working_directory`); absent = the session's cwd. */
  readonly cwd?: string;
  /** Extra environment the file sets for this hook (Copilot `env`). */
  readonly env?: Readonly<Record<string, string>>;
  /** Segments of the entry in the file, e.g. `['hooks', 'preToolUse', 0]`: its label and diagnostics use them. */
  readonly path: readonly JsonSegment[];
}

/** What one file contributes. */
export interface FormatFileContent {
  readonly hooks: readonly FormatHookEntry[];
  /** Errors (the file or an entry is skipped) and warnings (something not carried over). */
  readonly diagnostics: ConfigDiagnostic[];
}

/** One finished hook process, as the adapter reads it. */
export interface FormatRun {
  readonly event: HookEvent;
  readonly binding: FormatBinding;
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The Hookwise input the native input was made from (for rewrites that map back, e.g. modifiedArgs). */
  readonly input: Readonly<Record<string, unknown>>;
}

/**
 * How the agent reads the run: `ok` with an outcome (which may deny, e.g. Copilot's crashed
 * preToolUse), or `failed` (the runner then fails open, or closed when {@link HookFormatAdapter.failClosed}).
 */
export type FormatVerdict =
  | { readonly status: 'ok'; readonly outcome: HookOutcome; readonly warnings?: readonly string[] }
  | { readonly status: 'failed'; readonly error: string; readonly warnings?: readonly string[] };

/** What a hook process receives. */
export interface FormatInput {
  readonly stdin: Readonly<Record<string, unknown>>;
  /** Added to the environment (the agent's variables, e.g. `CURSOR_PROJECT_DIR`). */
  readonly env: Readonly<Record<string, string>>;
}

/** The file an adapter parses. */
export interface FormatFileWhere {
  readonly file: string;
  readonly displayFile: string;
  readonly scope: 'user' | 'project';
}

/** A foreign agent's hook format. */
export interface HookFormatAdapter {
  readonly id: HookFormatId;
  /** Shown in labels, the approval modal and docs, e.g. `Copilot`. */
  readonly displayName: string;
  readonly locations: readonly FormatLocation[];
  /** Which names of a `directory` location are hook files; default: `*.json` (Cline: executables named after events). */
  readonly directoryEntry?: (name: string) => boolean;
  /** True when each file is itself the program that runs (Cline): a project's file that really lies outside the project does not run. */
  readonly runsFile?: true;
  /** Reads one file's text; never throws. `where` names the file for diagnostics; `scope` says whose it is (user hooks may run elsewhere). */
  parse(text: string, where: FormatFileWhere): FormatFileContent;
  /** The matcher of a binding (the agent's syntax on the agent's vocabulary), or an error message. */
  compileMatcher(binding: FormatBinding, event: HookEvent): HookMatcher | string;
  /** The agent's stdin JSON and env for a Hookwise event input. */
  translateInput(binding: FormatBinding, event: HookEvent, input: Readonly<Record<string, unknown>>, ctx: HookActionContext): FormatInput;
  /** The agent's reading of the exit code and output. */
  interpret(run: FormatRun): FormatVerdict;
  /** The agent's default time limit for the binding. */
  defaultTimeoutMs(binding: FormatBinding): number;
  /** True when a failure or timeout of this hook denies (the runner's continueOnFailure: false). */
  failClosed(binding: FormatBinding): boolean;
}
