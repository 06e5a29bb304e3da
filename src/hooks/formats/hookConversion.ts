import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import type { ConfigDiagnostic } from '../../configFiles/configDiagnostic';
import { isPlainObject } from '../../shared/jsonObject';
import { formatJsonPath } from '../../configFiles/jsonPath';
import type { HookEvent } from '../hookEvent';
import type { HookFormatId, FormatHookEntry } from './hookFormat';
import { hookFormatAdapter, hookFormatName } from './formatRegistry';
import { conversionRule, FORMAT_CAVEATS } from './hookConversionRules';

/**
 * "Convert Hooks": which hooks of another agent's file can become `.claude/settings.json` entries
 * with exactly the same behaviour, and why the others cannot (docs/formats.md, "Converting").
 *
 * A hook script written for agent X reads X's stdin and answers in X's output, so copying its
 * command into `.claude/settings.json` keeps its behaviour only where X sends Claude Code's input
 * for that event and reads the answer, the exit codes, failures and timeouts as Claude Code does.
 * The per-format, per-event verdicts are in hookConversionRules.ts; this file applies them and
 * writes the agent's own time limit and matcher in Claude's terms. Pure: no I/O.
 */

/** One `.claude/settings.json` handler to add, and where it came from. */
export interface ConvertedHook {
  /** The Claude Code event (the key under `hooks`). */
  readonly event: HookEvent;
  /** Claude's matcher string, absent = every occurrence. */
  readonly matcher?: string;
  readonly handler: { readonly type: 'command'; readonly command: string; readonly timeout: number };
  /** The original hook, e.g. `Codex .codex/hooks.json › hooks.Stop[0].hooks[0]`. */
  readonly from: string;
}

/** A hook (or a part of the file) that is not converted, and why. */
export interface NotConverted {
  readonly label: string;
  readonly reason: string;
}

/** The result for one file. */
export interface HookConversion {
  readonly format: HookFormatId;
  readonly converted: readonly ConvertedHook[];
  readonly notConverted: readonly NotConverted[];
  /** What differs for every converted hook of this format although nothing the agent honours does (e.g. Codex's `turn_id`). */
  readonly caveats: readonly string[];
}

/** One file's parse, as formatFileRead.ts returns it. */
export interface ConversionInput {
  readonly format: HookFormatId;
  /** The file as users read it, e.g. `.codex/hooks.json`. */
  readonly displayFile: string;
  readonly hooks: readonly FormatHookEntry[];
  /** The parse's diagnostics: what the file has that Hookwise does not run at all is not converted either. */
  readonly diagnostics?: readonly ConfigDiagnostic[];
  /** The file's text, to see the fields the adapter resolved per platform (Codex `commandWindows`, Copilot `bash`/`powershell`). */
  readonly text?: string;
}

/** Entry fields that make the command depend on the platform in the agent; a `.claude/settings.json` command runs on every one. */
const PLATFORM_FIELDS: Readonly<Partial<Record<HookFormatId, readonly string[]>>> = {
  codex: ['commandWindows'],
  copilot: ['bash', 'powershell'],
};

/** Claude's matcher rules test names made of letters, digits, `_` and `|` exactly; anything else is an unanchored regex. */
const CLAUDE_EXACT_SET = /^[a-zA-Z0-9_|]+$/;

/** The hook's label as Hook Runs shows it. */
export function conversionLabel(format: HookFormatId, displayFile: string, path: readonly (string | number)[]): string {
  return `${hookFormatName(format)} ${displayFile}${path.length > 0 ? ` › ${formatJsonPath(path)}` : ''}`;
}

/** Converts what can be converted of one file; everything else is listed with its reason. */
export function convertFormatHooks(file: ConversionInput): HookConversion {
  const converted: ConvertedHook[] = [];
  const notConverted: NotConverted[] = [];
  const seen = new Set<string>();
  const root = file.text !== undefined ? parseRoot(file.text, file.displayFile) : undefined;
  for (const d of file.diagnostics ?? [])
    if (d.severity === 'error' || d.code === 'notCarriedOver' || d.code === 'unknownEvent')
      notConverted.push({ label: `${hookFormatName(file.format)} ${file.displayFile}${d.jsonPath ? ` › ${d.jsonPath}` : ''}`, reason: d.message });
  for (const entry of file.hooks) {
    const label = conversionLabel(file.format, file.displayFile, entry.path);
    // One native hook may fire on two Hookwise events (Codex PostToolUse): it is judged once.
    if (seen.has(label)) continue;
    seen.add(label);
    const verdict = judge(entry, platformFields(file.format, root, entry.path));
    if (typeof verdict === 'string') notConverted.push({ label, reason: verdict });
    else converted.push({ ...verdict, from: label });
  }
  return { format: file.format, converted, notConverted, caveats: converted.length > 0 ? (FORMAT_CAVEATS[file.format] ?? []) : [] };
}

/** The entry as a Claude handler, or why it cannot be one. */
function judge(entry: FormatHookEntry, platform: readonly string[]): Omit<ConvertedHook, 'from'> | string {
  const rule = conversionRule(entry.binding.format, entry.binding.nativeEvent);
  if (typeof rule === 'string') return rule;
  if (platform.length > 0)
    return `its command depends on the platform (${platform.map((f) => `"${f}"`).join(', ')}: ${hookFormatName(entry.binding.format)} runs another command or none elsewhere); a .claude/settings.json command runs the same on every platform`;
  if (entry.cwd !== undefined) return `it runs in its own directory ("cwd": ${JSON.stringify(entry.cwd)}); a Claude Code hook has no per-hook directory`;
  if (entry.env !== undefined && Object.keys(entry.env).length > 0)
    return `it sets its own environment (${Object.keys(entry.env).join(', ')}); a Claude Code hook has no per-hook environment`;
  const adapter = hookFormatAdapter(entry.binding.format);
  if (adapter === undefined) return `hooks of the ${entry.binding.format} format cannot run in this version`;
  // The agent's own limit (or its default), in Claude's seconds: Hookwise's and Claude Code's defaults differ from it.
  const timeoutMs = entry.binding.timeoutMs ?? adapter.defaultTimeoutMs(entry.binding);
  const matcher = claudeMatcher(entry.binding.matcher, rule.matcher);
  return { event: entry.event, ...(matcher !== undefined ? { matcher } : {}), handler: { type: 'command', command: entry.command, timeout: timeoutMs / 1000 } };
}

/**
 * The agent's matcher in Claude's syntax, testing the same value. `unanchored`: the agent tests an
 * unanchored regex, which Claude does too unless the pattern is a plain name or `|` list (then it
 * tests equality), so such a pattern is wrapped in a group to stay a regex. `claude`: same rules.
 */
function claudeMatcher(pattern: string | undefined, syntax: 'unanchored' | 'claude'): string | undefined {
  if (pattern === undefined || pattern === '' || pattern === '*') return undefined;
  if (syntax === 'claude') return pattern;
  return CLAUDE_EXACT_SET.test(pattern) ? `(?:${pattern})` : pattern;
}

/** The file as a value (JSON with comments, or a Codex config.toml); undefined when it does not parse. */
function parseRoot(text: string, displayFile: string): unknown {
  try {
    return displayFile.toLowerCase().endsWith('.toml') ? parseToml(text) : parseJsonc(text, [], { allowTrailingComma: true });
  } catch {
    return undefined;
  }
}

/** The platform-specific fields the entry at `at` has. */
function platformFields(format: HookFormatId, root: unknown, at: readonly (string | number)[]): string[] {
  const fields = PLATFORM_FIELDS[format];
  if (fields === undefined) return [];
  let node: unknown = root;
  for (const segment of at) node = Array.isArray(node) || isPlainObject(node) ? (node as Record<string | number, unknown>)[segment] : undefined;
  return isPlainObject(node) ? fields.filter((f) => node[f] !== undefined) : [];
}
