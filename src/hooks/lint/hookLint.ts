import { constants } from 'node:fs';
import { access, open } from 'node:fs/promises';
import path from 'node:path';
import { findNodeAtLocation, parseTree, type Node as JsonNode } from 'jsonc-parser';
import { closestName, lineStarts, offsetToLineColumn, type ConfigDiagnostic, type ConfigDiagnosticCode } from '../../configFiles/configDiagnostic';
import type { LoadedHook } from '../config/loadedHook';
import { classifyMatcher } from '../config/matcherCheck';
import { jsoncLocator } from '../../configFiles/nodeLocator';
import { shellWords } from '../config/scriptPins';
import { MATCHER_FIELD } from '../hookEvent';
import { parseJsonPath } from '../../configFiles/jsonPath';
import { riskyCommandReason } from './riskyCommands';
import { formatMatcherFinding } from './formatLint';

/**
 * Tool names a `tool_name` matcher can select: Hookwise's tools and Claude Code's (a config
 * shared with Claude Code may name its tools). `mcp__…` names are always accepted.
 */
export const KNOWN_TOOL_NAMES: readonly string[] = [
  'Bash',
  'Read',
  'Write',
  'Edit',
  'MultiEdit',
  'Glob',
  'Grep',
  'LS',
  'WebFetch',
  'WebSearch',
  'Agent',
  'Task',
  'TaskCreate',
  'TaskGet',
  'TaskList',
  'TaskUpdate',
  'TaskOutput',
  'TaskStop',
  'TodoWrite',
  'NotebookEdit',
  'NotebookRead',
  'BashOutput',
  'KillShell',
  'KillBash',
  'ExitPlanMode',
  'EnterPlanMode',
  'AskUserQuestion',
  'Skill',
  'SlashCommand',
  'ListMcpResourcesTool',
  'ReadMcpResourceTool',
];

/** Interpreters whose first argument is the script a hook runs (`python3 .claude/hooks/x.py`). */
const INTERPRETERS = /^(?:ba|z|da)?sh$|^(?:python\d*(?:\.\d+)?|node|bun|deno|ruby|perl|php|pwsh|powershell)$/;

/** What lint needs beyond the hooks. */
export interface HookLintOptions {
  /** Where a hook without a folder runs (the first workspace folder, or the CLI's --cwd). */
  readonly projectDir: string;
  readonly homeDir?: string;
  /** The source texts the loader read, to give each warning a line; undefined = file-level warning. */
  readonly textOf?: (file: string) => string | undefined;
}

/**
 * Likely mistakes in hooks that load fine, as warnings for the Problems panel and `hookwise hooks
 * list`: a script that is missing, not executable or has no shebang; an unquoted
 * `$CLAUDE_PROJECT_DIR`; a tool matcher naming no known tool; a risky command. Never runs a hook;
 * reads only the first bytes of the scripts named. (Timeouts over the cap and matchers on events
 * that ignore them are reported by the loader already.)
 */
export async function lintHooks(hooks: readonly LoadedHook[], options: HookLintOptions): Promise<ConfigDiagnostic[]> {
  const out: ConfigDiagnostic[] = [];
  for (const hook of hooks) {
    const found: { code: ConfigDiagnosticCode; message: string; suggestion?: string; field: string }[] = [];
    const field = MATCHER_FIELD[hook.event];
    // Another agent's matcher is judged in that agent's terms: its syntax on its tool names.
    const foreign = hook.format !== undefined ? formatMatcherFinding(hook) : undefined;
    if (foreign !== undefined) found.push({ code: 'unknownTool', field: 'matcher', ...foreign });
    else if (hook.format === undefined && field === 'tool_name' && hook.matcher !== undefined && classifyMatcher(hook.matcher) === 'names') {
      for (const name of hook.matcher.split('|')) {
        if (name === '' || name.startsWith('mcp__') || KNOWN_TOOL_NAMES.includes(name)) continue;
        const close = closestName(name, KNOWN_TOOL_NAMES);
        found.push({
          code: 'unknownTool',
          field: 'matcher',
          message: `matcher names \`${name}\`, which is no known tool, so it never matches${close !== undefined ? ` — did you mean \`${close}\`?` : ''}`,
          ...(close !== undefined
            ? {
                suggestion: hook.matcher
                  .split('|')
                  .map((n) => (n === name ? close : n))
                  .join('|'),
              }
            : {}),
        });
      }
    }
    const handler = hook.handler;
    if (handler.type === 'command') {
      const command = handler.command;
      if (hasUnquotedProjectDir(command))
        found.push({
          code: 'unquotedProjectDir',
          field: 'command',
          message: '`$CLAUDE_PROJECT_DIR` is not in double quotes: a project path with a space breaks the command; write "$CLAUDE_PROJECT_DIR"/…',
        });
      const risky = riskyCommandReason(command);
      if (risky !== undefined) found.push({ code: 'riskyCommand', field: 'command', message: risky });
      const projectDir = hook.folder ?? options.projectDir;
      for (const problem of await scriptProblems(command, 'args' in handler && Array.isArray(handler.args), projectDir, options.homeDir)) {
        // A Cline script without a shebang is already a warning of its own file (clineFormat.ts).
        if (problem.code === 'scriptNoShebang' && hook.format?.binding.format === 'cline') continue;
        found.push({ ...problem, field: 'command' });
      }
    }
    for (const f of found) out.push(place(hook, f, options.textOf));
  }
  return out;
}

/** True when `$CLAUDE_PROJECT_DIR` (or `${…}`) appears outside double quotes (single quotes do not expand it). */
export function hasUnquotedProjectDir(command: string): boolean {
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i];
    if (ch === '\\' && quote !== "'") {
      i++;
      continue;
    }
    if (quote === undefined && (ch === '"' || ch === "'")) quote = ch;
    else if (ch === quote) quote = undefined;
    else if (quote === undefined && ch === '$' && /^(?:\{CLAUDE_PROJECT_DIR\}|CLAUDE_PROJECT_DIR(?![A-Za-z0-9_]))/.test(command.slice(i + 1))) return true;
  }
  return false;
}

/** The script a command runs: its first word, or an interpreter's first non-option argument; undefined for a plain program name. */
export function scriptOf(command: string): { readonly word: string; readonly direct: boolean } | undefined {
  const words = shellWords(command).filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  const first = words[0];
  if (first === undefined) return undefined;
  const base = path.basename(first);
  if (INTERPRETERS.test(base) || (base === 'env' && words[1] !== undefined && INTERPRETERS.test(words[1]))) {
    const rest = words.slice(base === 'env' ? 2 : 1);
    if (rest[0] === '-c' || rest[0] === '-e') return undefined;
    const script = rest.find((w) => !w.startsWith('-'));
    return script !== undefined && looksLikePath(script) ? { word: script, direct: false } : undefined;
  }
  return looksLikePath(first) ? { word: first, direct: true } : undefined;
}

function looksLikePath(word: string): boolean {
  return word.includes('/') && !word.includes('://');
}

async function scriptProblems(
  command: string,
  execForm: boolean,
  projectDir: string,
  homeDir: string | undefined,
): Promise<{ code: ConfigDiagnosticCode; message: string }[]> {
  const script = scriptOf(command);
  if (script === undefined) return [];
  const expanded = script.word.replace(/\$\{CLAUDE_PROJECT_DIR\}|\$CLAUDE_PROJECT_DIR(?![A-Za-z0-9_])/g, projectDir);
  if (/[$`*?]/.test(expanded)) return [];
  const home = homeDir !== undefined && (expanded === '~' || expanded.startsWith('~/')) ? homeDir + expanded.slice(1) : expanded;
  if (home.startsWith('~')) return [];
  const file = path.resolve(projectDir, home);
  if (!(await reachable(file, constants.F_OK))) return [{ code: 'scriptMissing', message: `script ${script.word} does not exist (looked for ${file})` }];
  if (!script.direct) return [];
  const problems: { code: ConfigDiagnosticCode; message: string }[] = [];
  if (process.platform !== 'win32' && !(await reachable(file, constants.X_OK)))
    problems.push({ code: 'scriptNotExecutable', message: `script ${script.word} is not executable: run chmod +x ${script.word}` });
  if (!execForm && !(await startsWithShebang(file)))
    problems.push({ code: 'scriptNoShebang', message: `script ${script.word} has no #! line, so the system cannot tell which interpreter runs it` });
  return problems;
}

async function reachable(file: string, mode: number): Promise<boolean> {
  try {
    await access(file, mode);
    return true;
  } catch {
    return false;
  }
}

/** Reads two bytes only: a script of any size (or a FIFO) costs nothing. */
async function startsWithShebang(file: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    const stat = await handle.stat();
    if (!stat.isFile()) return true;
    const buf = Buffer.alloc(2);
    const { bytesRead } = await handle.read(buf, 0, 2, 0);
    // A binary (ELF, Mach-O) needs no shebang; only a text script does.
    return bytesRead < 2 || buf.toString('latin1') === '#!' || buf[0] === 0x7f || buf[0] === 0xcf || buf[0] === 0xfe;
  } catch {
    return true;
  } finally {
    await handle?.close();
  }
}

function place(
  hook: LoadedHook,
  f: { code: ConfigDiagnosticCode; message: string; suggestion?: string; field: string },
  textOf: HookLintOptions['textOf'],
): ConfigDiagnostic {
  const source = hook.source;
  const file = source.kind === 'code' ? undefined : source.file;
  const displayFile = source.kind === 'file' ? source.displayFile : source.kind === 'settings' ? `${source.scope} settings` : source.label;
  const handlerPath = source.kind === 'code' ? '' : source.jsonPath;
  const candidates = fieldPaths(hook, handlerPath, f.field);
  const text = file !== undefined && source.kind === 'file' && /\.jsonc?$/i.test(file) ? textOf?.(file) : undefined;
  const root = text !== undefined ? parseTree(text, [], { allowTrailingComma: true }) : undefined;
  const locator = text !== undefined ? jsoncLocator(root) : undefined;
  // The first place the field is written; a field left out (a default) is placed at the first candidate's nearest ancestor.
  const written = root !== undefined ? candidates.find((p) => exactlyAt(root, p)) : undefined;
  const jsonPath = written ?? candidates[0] ?? handlerPath;
  const base: ConfigDiagnostic = {
    ...(file !== undefined ? { file } : {}),
    displayFile,
    jsonPath,
    severity: 'warning',
    code: f.code,
    message: f.message,
    ...(f.suggestion !== undefined ? { suggestion: f.suggestion } : {}),
  };
  const segments = text !== undefined ? parseJsonPath(jsonPath) : undefined;
  if (text === undefined || locator === undefined || segments === undefined) return base;
  const span = locator.locate(segments);
  if (span === undefined) return base;
  const { line, column } = offsetToLineColumn(lineStarts(text), span.offset);
  return { ...base, offset: span.offset, length: span.length, line, column };
}

/**
 * Where a handler's field may be written, most likely first. A `.claude` group's `matcher` sits two
 * levels above the handler (`hooks.E[0].hooks[1]` → `hooks.E[0].matcher`); another agent's entry
 * may hold its own `matcher` and names its command `bash` or `powershell` (Copilot).
 */
function fieldPaths(hook: LoadedHook, handlerPath: string, field: string): string[] {
  // A whole-file hook (a Cline script) has no fields.
  if (handlerPath === '' && hook.format !== undefined) return [''];
  const group = handlerPath.replace(/\.hooks\[\d+\]$/, '.matcher');
  if (hook.format === undefined) return [field === 'matcher' ? group : `${handlerPath}.${field}`];
  if (field === 'matcher') return [`${handlerPath}.matcher`, ...(group !== handlerPath ? [group] : [])];
  return field === 'command' ? ['command', 'bash', 'powershell'].map((f) => `${handlerPath}.${f}`) : [`${handlerPath}.${field}`];
}

/** True when `jsonPath` names a node written in `text` (not only an ancestor of it). */
function exactlyAt(root: JsonNode, jsonPath: string): boolean {
  const segments = parseJsonPath(jsonPath);
  return segments !== undefined && findNodeAtLocation(root, segments) !== undefined;
}
