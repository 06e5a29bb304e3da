import type { ConfigDiagnostic } from '../../configFiles/configDiagnostic';
import { parseConfigFile, type ConfigFileInput } from './configFileParse';

export type { ConfigFileInput } from './configFileParse';

/**
 * Where the last good text of each hook configuration file is kept, by absolute path: the
 * extension keeps it in the workspace's storage, the CLI in its state directory. `remember` with
 * `undefined` forgets a file (it was removed: a removal is meant, an error is not).
 */
export interface LastGoodStore {
  get(file: string): Promise<string | undefined>;
  remember(file: string, text: string | undefined): Promise<void>;
}

/** A configuration file that could not be read or parsed on this load. */
export interface BrokenConfigFile {
  readonly file: string;
  readonly displayFile: string;
  /** `lastGood`: the last version that read cleanly is in force instead; `none`: no good version is known, the file's hooks are not in force. */
  readonly inForce: 'lastGood' | 'none';
  /** The first error in the file as it is now: where the link points. */
  readonly error: ConfigDiagnostic;
  /** True for a file of the workspace (its hooks still need trust and approval, from the cache too). */
  readonly project: boolean;
}

/** Codes that mean the file as a whole was not read as written (a bad entry inside a good file is not one). */
const FATAL = new Set<ConfigDiagnostic['code']>(['notJson', 'syntaxError', 'tooDeep', 'tooLarge', 'unreadable', 'agentFrontmatter']);

/** Every diagnostic the reader reports for `text` as the file `input` (fatal ones make it broken: {@link isFatalConfigError}). */
export function configFileDiagnostics(input: ConfigFileInput, text: string): ConfigDiagnostic[] {
  return parseConfigFile(input, text).content.diagnostics;
}

/** True for a diagnostic that makes a file broken. */
export function isFatalConfigError(d: ConfigDiagnostic): boolean {
  return d.severity === 'error' && FATAL.has(d.code);
}

/**
 * The sentence the chat, the status bar, the CLI and Explain show for a broken file, e.g.
 * "project hooks from `.claude/settings.json`: last good version in force, the file has an error".
 */
export function brokenFileNotice(b: BrokenConfigFile): string {
  const whose = b.project ? 'project hooks' : 'hooks';
  const at = b.error.line !== undefined ? ` (line ${b.error.line})` : '';
  return b.inForce === 'lastGood'
    ? `${whose} from \`${b.displayFile}\`: last good version in force, the file has an error${at}`
    : `${whose} from \`${b.displayFile}\` are NOT in force: the file has an error${at} and no last good version is known (only what can still be read from it loads)`;
}

/** The diagnostic that says so, on the broken file itself (beside its own errors). */
export function brokenFileDiagnostic(b: BrokenConfigFile): ConfigDiagnostic {
  return {
    file: b.file,
    displayFile: b.displayFile,
    jsonPath: '',
    ...(b.error.line !== undefined ? { line: b.error.line } : {}),
    ...(b.error.column !== undefined ? { column: b.error.column } : {}),
    ...(b.error.offset !== undefined ? { offset: b.error.offset } : {}),
    ...(b.error.length !== undefined ? { length: b.error.length } : {}),
    severity: b.inForce === 'lastGood' ? 'warning' : 'error',
    code: 'lastGoodInForce',
    message: `${brokenFileNotice(b)}. Fix the error to apply your changes.`,
  };
}
