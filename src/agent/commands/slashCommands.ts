import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { readAgentFrontmatter } from '../../hooks/config/agentFrontmatter';
import { readBoundedTextFile } from '../../configFiles/configFileSystem';
import { thrownMessage } from '../../shared/describeThrown';
import { splitRuleList } from '../../permissions/ruleList';

/**
 * Claude Code's custom slash commands: `.claude/commands/**\/*.md` in the project and
 * `~/.claude/commands/` for the user. A file's name is the command (`deploy.md` → `/deploy`); a
 * subfolder is its namespace, shown in the description (`frontend/button.md` → `/button`,
 * "(project:frontend)"), and a project command wins over a user one of the same name. The
 * frontmatter may set `description`, `argument-hint`, `allowed-tools` and `model`.
 */

/** One command, ready to expand. */
export interface SlashCommand {
  readonly name: string;
  readonly scope: 'project' | 'user' | `plugin:${string}`;
  /** Subfolder path under commands/, e.g. `frontend` (empty at the top). */
  readonly namespace: string;
  readonly file: string;
  readonly description: string;
  readonly argumentHint?: string;
  /** Permission rules (`Bash(git status:*)`) that let its `!` commands run without asking. */
  readonly allowedTools: readonly string[];
  readonly model?: string;
  /** The markdown body: the prompt template. */
  readonly body: string;
}

/** Commands found, and the files that could not be read (named). */
export interface SlashCommandSet {
  readonly commands: readonly SlashCommand[];
  readonly problems: readonly string[];
}

const MAX_COMMAND_FILES = 500;
const NAME = /^[\w.-]{1,64}$/;

/** Loads the user's, then the project's commands (the project wins a name clash). Never throws. */
export async function loadSlashCommands(dirs: { readonly projectDir: string; readonly homeDir: string }): Promise<SlashCommandSet> {
  const problems: string[] = [];
  const byName = new Map<string, SlashCommand>();
  for (const [scope, dir] of [
    ['user', path.join(dirs.homeDir, '.claude', 'commands')],
    ['project', path.join(dirs.projectDir, '.claude', 'commands')],
  ] as const) {
    for (const command of await readCommandDir(dir, scope, problems)) byName.set(command.name, command);
  }
  return { commands: [...byName.values()].sort((a, b) => a.name.localeCompare(b.name)), problems };
}

/** Reads every `*.md` under `dir` as a command of `scope`. */
export async function readCommandDir(dir: string, scope: SlashCommand['scope'], problems: string[]): Promise<SlashCommand[]> {
  let names: string[];
  try {
    names = (await readdir(dir, { recursive: true })).filter((n) => n.endsWith('.md')).sort();
  } catch {
    return [];
  }
  if (names.length > MAX_COMMAND_FILES) {
    problems.push(`${dir}: ${names.length} command files; only the first ${MAX_COMMAND_FILES} are read`);
    names = names.slice(0, MAX_COMMAND_FILES);
  }
  const out: SlashCommand[] = [];
  for (const rel of names) {
    const file = path.join(dir, rel);
    const name = path.basename(rel, '.md');
    if (!NAME.test(name)) {
      problems.push(`${file}: "${name}" cannot be a command name (letters, digits, _ . - only)`);
      continue;
    }
    let text: string | undefined;
    try {
      text = await readBoundedTextFile(file);
    } catch (error) {
      problems.push(`${file}: ${thrownMessage(error)}`);
      continue;
    }
    if (text === undefined) continue;
    out.push(parseCommand(text, { name, scope, namespace: path.dirname(rel) === '.' ? '' : path.dirname(rel).split(path.sep).join('/'), file }, problems));
  }
  return out;
}

function parseCommand(text: string, at: Pick<SlashCommand, 'name' | 'scope' | 'namespace' | 'file'>, problems: string[]): SlashCommand {
  const front = readAgentFrontmatter(text);
  let meta: Record<string, unknown> = {};
  if (front?.yaml.ok && typeof front.yaml.value === 'object' && front.yaml.value !== null) meta = front.yaml.value as Record<string, unknown>;
  else if (front && !front.yaml.ok) {
    // Command frontmatter is often not strict YAML (`argument-hint: [pr] [priority]`): read plain `key: value` lines.
    meta = plainFrontmatter(text);
    if (Object.keys(meta).length === 0) problems.push(`${at.file}: frontmatter is not valid YAML (${front.yaml.message}); it is ignored`);
  }
  // `argument-hint: [message]` is a YAML list; Claude Code shows it as written.
  if (Array.isArray(meta['argument-hint'])) meta['argument-hint'] = `[${(meta['argument-hint'] as unknown[]).join('] [')}]`;
  const body = front ? front.body : text;
  const str = (key: string): string | undefined => (typeof meta[key] === 'string' ? (meta[key] as string) : undefined);
  const tools = meta['allowed-tools'];
  const allowedTools = typeof tools === 'string' ? splitRuleList(tools) : Array.isArray(tools) ? tools.filter((t): t is string => typeof t === 'string') : [];
  const where = at.namespace ? `${at.scope}:${at.namespace}` : at.scope;
  const firstLine = body.trim().split('\n', 1)[0]?.trim() ?? '';
  return {
    ...at,
    description: `${str('description') ?? (firstLine.length > 80 ? `${firstLine.slice(0, 80)}…` : firstLine)} (${where})`,
    ...(str('argument-hint') !== undefined ? { argumentHint: str('argument-hint') as string } : {}),
    allowedTools,
    ...(str('model') !== undefined ? { model: str('model') as string } : {}),
    body,
  };
}

/** `key: value` lines of the frontmatter block, values as written (for frontmatter that is not strict YAML). */
function plainFrontmatter(text: string): Record<string, unknown> {
  const block = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)^---/m.exec(text)?.[1] ?? '';
  const out: Record<string, unknown> = {};
  for (const m of block.matchAll(/^([\w-]+):[ \t]*(.*?)[ \t]*\r?$/gm)) out[m[1] as string] = m[2] as string;
  return out;
}

/** `/name rest of line` → the command name and its raw arguments, or undefined when the prompt is not a slash command. */
export function parseSlashInvocation(prompt: string): { readonly name: string; readonly args: string } | undefined {
  const m = /^\/([\w.:-]+)(?:\s+([\s\S]*))?$/.exec(prompt.trim());
  return m ? { name: m[1] as string, args: (m[2] ?? '').trim() } : undefined;
}
