import path from 'node:path';
import picomatch from 'picomatch';
import type { HookSource } from '../configFiles/hookSource';
import { commandDenyForms, roughDenyForms } from './bashDenyForms';
import { splitShellCommand } from './shellCommand';
import { ruleTargetPaths } from './rulePaths';
import type { RuleTargetPaths } from './rulePaths';

/**
 * Claude Code permission rules (`permissions.allow|ask|deny` in settings files): parsing,
 * matching one tool call, evaluation with deny > ask > allow, and the rule "Always Allow"
 * writes. Pure; the permission pipeline decides what a match means.
 */

/** What a matching rule decides. */
export type PermissionBehavior = 'allow' | 'deny' | 'ask';

/** A parsed rule: `Bash`, `Bash(npm test:*)`, `Edit(src/**)`, `WebFetch(domain:x)`. */
export interface PermissionRule {
  /** The rule as written. */
  readonly text: string;
  readonly toolName: string;
  /** Text inside the parentheses, when present. */
  readonly specifier?: string;
  /** Parsed but never matches (specifier kinds Hookwise does not evaluate, e.g. `WebFetch(domain:…)`). */
  readonly inert?: boolean;
}

/** A rule with where it came from. */
export interface PermissionRuleEntry {
  readonly behavior: PermissionBehavior;
  readonly rule: PermissionRule;
  readonly source: HookSource;
  /** Workspace folder the rule belongs to (multi-root); undefined = everywhere. */
  readonly folder?: string;
}

/** Paths rules are resolved against. */
export interface PermissionContext {
  /** Project root: relative patterns and tool paths resolve against it. */
  readonly projectRoot: string;
  /** Home directory, for `~/` patterns. */
  readonly homeDir?: string;
  /** The session's cwd, which relative tool paths resolve against (the project root when absent). */
  readonly cwd?: string;
}

/** Rules whose tool name covers several tools (Claude Code: Edit rules cover every file-writing tool). */
const TOOL_FAMILIES: Readonly<Record<string, readonly string[]>> = {
  Edit: ['Edit', 'Write', 'MultiEdit', 'NotebookEdit'],
  Read: ['Read', 'Glob', 'Grep'],
  Task: ['Task', 'Agent'],
  Agent: ['Task', 'Agent'],
};
const PATH_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit', 'Read', 'Glob', 'Grep']);
// `mcp__server__*` (every tool of one MCP server) is the one name with a wildcard.
const RULE = /^([A-Za-z0-9_-]+|mcp__[A-Za-z0-9_-]+?__\*)(?:\((.*)\))?$/s;

/** Parses one rule; returns an error sentence instead of throwing. */
export function parsePermissionRule(text: string): { ok: true; rule: PermissionRule } | { ok: false; message: string } {
  const match = RULE.exec(text.trim());
  if (!match) return { ok: false, message: `${JSON.stringify(text)} is not a permission rule; expected Tool or Tool(specifier), e.g. "Bash(npm test:*)"` };
  const toolName = match[1] as string;
  const specifier = match[2];
  if (specifier === undefined) return { ok: true, rule: { text, toolName } };
  if (specifier.trim() === '') return { ok: false, message: `${JSON.stringify(text)} has an empty specifier; write "${toolName}" to match every call` };
  const inert = toolName !== 'Bash' && !PATH_TOOLS.has(toolName);
  return { ok: true, rule: { text, toolName, specifier, ...(inert ? { inert } : {}) } };
}

function coversTool(ruleTool: string, toolName: string): boolean {
  if (ruleTool === toolName) return true;
  if (TOOL_FAMILIES[ruleTool]?.includes(toolName)) return true;
  // `mcp__server` covers every tool of that server (Claude Code); `mcp__server__*` too.
  if (ruleTool.startsWith('mcp__') && !ruleTool.slice(5).includes('__')) return toolName.startsWith(`${ruleTool}__`);
  if (ruleTool.startsWith('mcp__') && ruleTool.endsWith('__*')) return toolName.startsWith(ruleTool.slice(0, -1)) && toolName.length > ruleTool.length - 1;
  return false;
}

/** True when the rule's Bash specifier matches one simple command. */
export function bashSpecifierMatches(specifier: string, command: string): boolean {
  const cmd = command.trim();
  const spec = specifier.trim();
  const prefix = spec.endsWith(':*') ? spec.slice(0, -2).trimEnd() : spec.endsWith(' *') ? spec.slice(0, -2).trimEnd() : undefined;
  if (prefix !== undefined) return cmd === prefix || cmd.startsWith(`${prefix} `) || cmd.startsWith(`${prefix}\t`);
  if (spec.includes('*')) {
    const pattern = spec
      .split('*')
      .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    return new RegExp(`^${pattern}$`, 's').test(cmd);
  }
  return cmd === spec;
}

function toPosix(p: string): string {
  return p.replace(/\\/g, '/');
}

const matcherCache = new Map<string, (rel: string) => boolean>();
const MATCHER_CACHE_MAX = 500;

/** A compiled picomatch matcher; rules are few and matched per file by Grep/Glob, so compile once. */
function compiled(relPattern: string): (rel: string) => boolean {
  let m = matcherCache.get(relPattern);
  if (!m) {
    if (matcherCache.size >= MATCHER_CACHE_MAX) matcherCache.clear();
    m = picomatch(relPattern, { dot: true });
    matcherCache.set(relPattern, m);
  }
  return m;
}

/**
 * True when a path pattern (gitignore-like, as in Claude Code) matches `filePath` as text.
 * Symlinks are not looked at here: `pathRuleMatches` matches both the given and the real path.
 */
export function pathPatternMatches(pattern: string, filePath: string, ctx: PermissionContext): boolean {
  const absolute = path.resolve(ctx.projectRoot, filePath);
  let base = ctx.projectRoot;
  let relPattern: string;
  if (pattern.startsWith('//')) {
    base = path.parse(absolute).root;
    relPattern = pattern.slice(2);
  } else if (pattern.startsWith('~/')) {
    if (!ctx.homeDir) return false;
    base = ctx.homeDir;
    relPattern = pattern.slice(2);
  } else if (pattern.startsWith('/')) {
    relPattern = pattern.slice(1);
  } else if (pattern.startsWith('./')) {
    relPattern = pattern.slice(2);
  } else {
    // No slash: like .gitignore, match the name at any depth.
    relPattern = pattern.includes('/') ? pattern : `**/${pattern}`;
  }
  if (relPattern.endsWith('/')) relPattern += '**';
  const rel = toPosix(path.relative(base, absolute));
  if (rel === '' || rel.startsWith('../') || rel === '..' || path.isAbsolute(rel)) return false;
  return compiled(relPattern)(rel);
}

function pathOf(input: Readonly<Record<string, unknown>>): string | undefined {
  const value = input.file_path ?? input.notebook_path ?? input.path;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * True when `rule` matches the call. For Bash, the rule matches when it matches the whole
 * command, any simple command the shell would run, or a normalised form of one (`sudo /bin/rm`
 * → `rm`; see bashMatchForms): what deny and ask need. Allow is stricter, see bashAllow.
 */
export function ruleMatches(rule: PermissionRule, toolName: string, input: Readonly<Record<string, unknown>>, ctx: PermissionContext): boolean {
  if (rule.inert || !coversTool(rule.toolName, toolName)) return false;
  if (rule.specifier === undefined) return true;
  if (rule.toolName === 'Bash') {
    const command = typeof input.command === 'string' ? input.command : '';
    const specifier = rule.specifier;
    return bashMatchForms(command).some((form) => bashSpecifierMatches(specifier, form));
  }
  return pathRuleMatches(rule.specifier, lazyTargets(input, ctx), ctx);
}

/**
 * True when a path rule's specifier matches the call's path: the path as given OR its real
 * (symlink-resolved) path, so a symlink cannot dodge a deny; with `realOnly` (allow) the real
 * path must match, so a symlink cannot borrow an allow. False when the call has no path.
 */
export function pathRuleMatches(specifier: string, targets: () => RuleTargetPaths | undefined, ctx: PermissionContext, realOnly = false): boolean {
  const t = targets();
  if (t === undefined) return false;
  if (pathPatternMatches(specifier, t.real, ctx)) return true;
  return !realOnly && t.given !== t.real && pathPatternMatches(specifier, t.given, ctx);
}

/**
 * The given and real spelling of the call's path, computed once per evaluation (lazily: a
 * call no path rule covers costs no syscall). A knownReal skips the realpath.
 */
function lazyTargets(input: Readonly<Record<string, unknown>>, ctx: PermissionContext, knownReal?: string): () => RuleTargetPaths | undefined {
  let done = false;
  let value: RuleTargetPaths | undefined;
  return () => {
    if (!done) {
      done = true;
      const file = pathOf(input);
      value = file === undefined ? undefined : ruleTargetPaths(file, ctx, knownReal);
    }
    return value;
  };
}

/** ruleMatches, with the call's paths resolved once for all rules and allow's stricter path test. */
function matchesCall(
  rule: PermissionRule,
  toolName: string,
  input: Readonly<Record<string, unknown>>,
  ctx: PermissionContext,
  targets: () => RuleTargetPaths | undefined,
  realOnly: boolean,
): boolean {
  if (rule.inert || rule.specifier === undefined || rule.toolName === 'Bash' || !coversTool(rule.toolName, toolName))
    return ruleMatches(rule, toolName, input, ctx);
  return pathRuleMatches(rule.specifier, targets, ctx, realOnly);
}

let lastForms: { command: string; forms: readonly string[] } | undefined;

/**
 * What a Bash deny or ask rule is matched against: the whole command, each simple command the
 * shell would run (nested ones too) as written, and their normalised forms (bashDenyForms);
 * when the lexer is unsure, also every operator-separated piece of the raw text. Cached for
 * the last command: evaluation asks once per rule.
 */
function bashMatchForms(command: string): readonly string[] {
  if (lastForms?.command === command) return lastForms.forms;
  const split = splitShellCommand(command);
  const forms = new Set<string>([command.trim()]);
  for (const c of split.commands) {
    forms.add(c.text);
    for (const form of commandDenyForms(c)) forms.add(form);
  }
  if (split.unsure !== undefined) for (const form of roughDenyForms(command)) forms.add(form);
  lastForms = { command, forms: [...forms] };
  return lastForms.forms;
}

/** The first rule that decides the call, deny before ask before allow; undefined = no rule applies. */
export function evaluatePermissionRules(
  entries: readonly PermissionRuleEntry[],
  toolName: string,
  input: Readonly<Record<string, unknown>>,
  ctx: PermissionContext,
  /** The real path of the call's path when the caller already knows it (Grep's walk). */
  knownReal?: string,
): { behavior: PermissionBehavior; entry: PermissionRuleEntry } | undefined {
  const targets = lazyTargets(input, ctx, knownReal);
  for (const behavior of ['deny', 'ask'] as const) {
    const entry = entries.find((e) => e.behavior === behavior && matchesCall(e.rule, toolName, input, ctx, targets, false));
    if (entry) return { behavior, entry };
  }
  const allows = entries.filter((e) => e.behavior === 'allow');
  const entry = toolName === 'Bash' ? bashAllow(allows, input) : allows.find((e) => matchesCall(e.rule, toolName, input, ctx, targets, true));
  return entry ? { behavior: 'allow', entry } : undefined;
}

/**
 * Allow for Bash: every simple command the shell would run must be allowed, including those in
 * `$(…)`, backticks and `<(…)` (so `npm test && rm -rf /` is not allowed by `Bash(npm test:*)`).
 * A command that redirects output to a file, or that the lexer cannot be sure about (eval,
 * computed command names, unbalanced quotes, constructs it does not model), is allowed only by
 * an exact rule or a bare `Bash`. Assignments are not stripped: `FOO=1 npm test` needs its own
 * rule, since `PATH=…`/`NODE_OPTIONS=…` change what runs.
 */
function bashAllow(allows: readonly PermissionRuleEntry[], input: Readonly<Record<string, unknown>>): PermissionRuleEntry | undefined {
  const command = typeof input.command === 'string' ? input.command.trim() : '';
  const whole = allows.find((e) => coversTool(e.rule.toolName, 'Bash') && (e.rule.specifier === undefined || e.rule.specifier.trim() === command));
  if (whole) return whole;
  const split = splitShellCommand(command);
  if (split.risky || split.parts.length === 0) return undefined;
  let first: PermissionRuleEntry | undefined;
  for (const part of split.parts) {
    const entry = allows.find(
      (e) => !e.rule.inert && e.rule.toolName === 'Bash' && e.rule.specifier !== undefined && bashSpecifierMatches(e.rule.specifier, part),
    );
    if (!entry) return undefined;
    first ??= entry;
  }
  return first;
}

/** Commands whose sub-command is part of what the user approves (`git status`, `npm test`). */
const TWO_WORD_COMMANDS = new Set([
  'npm',
  'pnpm',
  'yarn',
  'bun',
  'npx',
  'git',
  'cargo',
  'go',
  'docker',
  'kubectl',
  'gh',
  'dotnet',
  'uv',
  'poetry',
  'deno',
  'pip',
  'brew',
  'make',
]);
const RUN_SUBCOMMANDS = new Set(['run', 'exec', 'x']);

/**
 * The rule "Always Allow" writes for a call: Bash → `Bash(<command words>:*)` (`npm test` →
 * `Bash(npm test:*)`, `npm run build -- --x` → `Bash(npm run build:*)`, compound or risky
 * commands → the exact command); file tools → `Edit(<path relative to the project>)` /
 * `Read(…)` (`//abs/path` outside it); WebFetch → `WebFetch(domain:<host>)`; others → the tool name.
 */
export function suggestRule(toolName: string, input: Readonly<Record<string, unknown>>, ctx: PermissionContext): string {
  if (toolName === 'Bash') {
    const command = typeof input.command === 'string' ? input.command.trim().replace(/\s+/g, ' ') : '';
    if (command === '') return 'Bash';
    const split = splitShellCommand(command);
    const words = command.split(' ');
    if (split.risky || split.parts.length !== 1 || (words[0] ?? '').includes('=')) return `Bash(${command})`;
    const take = [words[0] as string];
    const isArg = (w: string | undefined): w is string => w !== undefined && !w.startsWith('-') && !/[*?"'$]/.test(w);
    if (TWO_WORD_COMMANDS.has(take[0] as string) && isArg(words[1])) {
      take.push(words[1]);
      if (RUN_SUBCOMMANDS.has(words[1]) && isArg(words[2])) take.push(words[2]);
    }
    return `Bash(${take.join(' ')}:*)`;
  }
  const family = ['Edit', 'Write', 'MultiEdit', 'NotebookEdit'].includes(toolName) ? 'Edit' : toolName === 'Read' ? 'Read' : undefined;
  const file = pathOf(input);
  if (family && file) {
    // The real path: an allow applies to where a call really lands, so that is what to allow.
    const absolute = ruleTargetPaths(file, ctx).real;
    const rel = toPosix(path.relative(ctx.projectRoot, absolute));
    const inside = rel !== '' && !rel.startsWith('../') && !path.isAbsolute(rel);
    return `${family}(${inside ? rel : `/${toPosix(absolute)}`})`;
  }
  if (toolName === 'WebFetch' && typeof input.url === 'string') {
    try {
      return `WebFetch(domain:${new URL(input.url).hostname})`;
    } catch {
      return 'WebFetch';
    }
  }
  return toolName;
}
