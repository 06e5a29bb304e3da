import path from 'node:path';
import { readBoundedTextFile } from '../configFiles/configFileSystem';
import { MAX_CONFIG_FILE_BYTES } from '../configFiles/configLimits';
import { parseBoundedJson } from '../shared/boundedJson';
import { describeThrown } from '../shared/describeThrown';
import type { McpConfigProblem, McpServerDefinition, McpServerScope } from './mcpServerConfig';
import { parseMcpServers } from './mcpServerConfig';
import type { PluginRoot } from '../plugins/pluginLoader';
import { isPlainObject } from '../shared/jsonObject';
import { formatJsonPath } from '../configFiles/jsonPath';
import { withMcpScriptPins } from './mcpScriptPins';
import { normalizeNamePart } from './mcpToolNames';

/** `~/.claude.json` also holds Claude Code's history and grows past the 2 MiB of settings files. */
const MAX_CLAUDE_JSON_BYTES = 16 * 1024 * 1024;

/** Where MCP servers are read from. */
export interface McpSourceOptions {
  readonly homeDir: string;
  /** The project root: its `.mcp.json`, and its entry in `~/.claude.json` `projects`. */
  readonly projectDir: string;
  /** `--mcp-config` values: each a file path or a JSON string (`{"mcpServers": …}`). */
  readonly flagConfigs?: readonly string[];
  /** `--strict-mcp-config`: only the `--mcp-config` servers. */
  readonly strict?: boolean;
  /** The user-level `hookwise.mcp.servers` setting (runs without approval). */
  readonly settingServers?: unknown;
  /** The workspace-level `hookwise.mcp.servers`: written by the repository, so a project server (approval needed). */
  readonly workspaceSettingServers?: unknown;
  /** Variables for `${VAR}` expansion. */
  readonly env: NodeJS.ProcessEnv;
  /** Base directory of relative `--mcp-config` paths. */
  readonly cwd?: string;
  /** Claude Code plugins: their `.mcp.json` (or manifest `mcpServers`) servers, below every other source. */
  readonly plugins?: readonly PluginRoot[];
}

/** Every server found, by name (a higher-precedence source wins a name; a workspace server never takes one of the user's), and the problems. */
export interface LoadedMcpConfig {
  readonly servers: readonly McpServerDefinition[];
  readonly problems: readonly McpConfigProblem[];
}

/** Precedence, lowest first: a later scope's server replaces an earlier one of the same name (Claude Code: local > project > user). */
const ORDER: readonly McpServerScope[] = ['user', 'setting', 'project', 'local', 'flag'];

/**
 * Reads the MCP server definitions Claude Code would: `~/.claude.json` `mcpServers` (user)
 * and `projects[<projectDir>].mcpServers` (local), the project's `.mcp.json` (project), plus
 * Hookwise's `hookwise.mcp.servers` setting and `--mcp-config` values. With `strict`, only the
 * `--mcp-config` ones. A missing file is no problem; an unreadable or invalid one is one
 * problem naming it, and the other sources still load. Never throws.
 */
export async function loadMcpConfig(o: McpSourceOptions): Promise<LoadedMcpConfig> {
  const problems: McpConfigProblem[] = [];
  const found: McpServerDefinition[] = [];
  const add = (value: unknown, scope: McpServerScope, displayFile: string, at: (string | number)[], env: NodeJS.ProcessEnv = o.env): void => {
    const parsed = parseMcpServers(value, { scope, displayFile, at, env });
    found.push(...parsed.servers);
    problems.push(...parsed.problems);
  };

  if (!o.strict) {
    // First, so a user or project server of the same name wins.
    for (const plugin of o.plugins ?? []) await addPluginServers(plugin, o.env, add, problems);
    const claudeJson = await readJson(path.join(o.homeDir, '.claude.json'), '~/.claude.json', MAX_CLAUDE_JSON_BYTES, problems);
    if (isPlainObject(claudeJson)) {
      add(claudeJson.mcpServers, 'user', '~/.claude.json', ['mcpServers']);
      const projects = claudeJson.projects;
      if (isPlainObject(projects)) {
        const key = Object.keys(projects).find((p) => samePath(p, o.projectDir));
        const entry = key === undefined ? undefined : projects[key];
        if (key !== undefined && isPlainObject(entry)) add(entry.mcpServers, 'local', '~/.claude.json', ['projects', key, 'mcpServers']);
      }
    }
    if (o.settingServers !== undefined) add(o.settingServers, 'setting', 'hookwise.mcp.servers', []);
    if (o.workspaceSettingServers !== undefined) add(o.workspaceSettingServers, 'project', 'workspace hookwise.mcp.servers', []);
    const project = await readJson(path.join(o.projectDir, '.mcp.json'), '.mcp.json', MAX_CONFIG_FILE_BYTES, problems);
    if (project !== undefined) {
      if (isPlainObject(project)) add(project.mcpServers, 'project', '.mcp.json', ['mcpServers']);
      else problems.push({ displayFile: '.mcp.json', jsonPath: '', message: 'must be a JSON object with "mcpServers"' });
    }
  }
  for (const [i, value] of (o.flagConfigs ?? []).entries()) {
    const trimmed = value.trim();
    const label = trimmed.startsWith('{') ? `--mcp-config #${i + 1}` : value;
    const json = trimmed.startsWith('{')
      ? parseText(trimmed, label, problems)
      : await readJson(path.resolve(o.cwd ?? process.cwd(), value), label, MAX_CONFIG_FILE_BYTES, problems, true);
    if (json === undefined) continue;
    if (isPlainObject(json) && json.mcpServers !== undefined) add(json.mcpServers, 'flag', label, ['mcpServers']);
    else problems.push({ displayFile: label, jsonPath: '', message: 'must be a JSON object with "mcpServers"' });
  }

  const byName = new Map<string, McpServerDefinition>();
  const allowed = refuseShadowing(found, problems);
  for (const scope of ORDER) for (const server of allowed) if (server.scope === scope) byName.set(server.name, server);
  return { servers: await Promise.all([...byName.values()].map((server) => withMcpScriptPins(server, o.projectDir))), problems };
}

/**
 * A workspace server may not take the name of one of the user's (`~/.claude.json`, the user
 * setting, a local or `--mcp-config` server, an installed plugin's): its tools would be
 * `mcp__<name>__*` and inherit the rules written for the user's server. Compared as tool names
 * normalise them (`my server` = `my_server`). The workspace's server is left out, with a problem.
 */
function refuseShadowing(found: readonly McpServerDefinition[], problems: McpConfigProblem[]): McpServerDefinition[] {
  const yours = new Map<string, McpServerDefinition>();
  for (const server of found) if (server.scope !== 'project') yours.set(normalizeNamePart(server.name), server);
  return found.filter((server) => {
    const mine = server.scope === 'project' ? yours.get(normalizeNamePart(server.name)) : undefined;
    if (mine === undefined) return true;
    problems.push({
      displayFile: server.displayFile,
      jsonPath: server.displayFile === '.mcp.json' ? formatJsonPath(['mcpServers', server.name]) : formatJsonPath([server.name]),
      message: `server "${server.name}" is off: the workspace may not reuse the name of your server "${mine.name}" (${mine.displayFile}), whose mcp__${normalizeNamePart(mine.name)}__* tools and rules are yours; rename it`,
    });
    return false;
  });
}

/**
 * A plugin's servers: `.mcp.json` (`{"mcpServers": {...}}` or the bare map) and the manifest's
 * `mcpServers`, with `${CLAUDE_PLUGIN_ROOT}` / `${CLAUDE_PLUGIN_DATA}` expanded. A plugin inside the
 * workspace gives project servers (approval needed), an installed one user servers.
 */
async function addPluginServers(
  plugin: PluginRoot,
  baseEnv: NodeJS.ProcessEnv,
  add: (value: unknown, scope: McpServerScope, displayFile: string, at: (string | number)[], env: NodeJS.ProcessEnv) => void,
  problems: McpConfigProblem[],
): Promise<void> {
  const env = { ...baseEnv, CLAUDE_PLUGIN_ROOT: plugin.root, CLAUDE_PLUGIN_DATA: plugin.dataDir };
  const scope: McpServerScope = plugin.projectFolder !== undefined ? 'project' : 'user';
  for (const file of plugin.mcpFiles) {
    const displayFile = `plugin ${plugin.name} › ${path.relative(plugin.root, file).split(path.sep).join('/')}`;
    const json = await readJson(file, displayFile, MAX_CONFIG_FILE_BYTES, problems);
    if (json === undefined) continue;
    if (!isPlainObject(json)) problems.push({ displayFile, jsonPath: '', message: 'must be a JSON object of servers' });
    else if (json.mcpServers !== undefined) add(json.mcpServers, scope, displayFile, ['mcpServers'], env);
    else add(json, scope, displayFile, [], env);
  }
  if (plugin.inlineMcpServers !== undefined) add(plugin.inlineMcpServers, scope, `plugin ${plugin.name} › .claude-plugin/plugin.json`, ['mcpServers'], env);
}

async function readJson(file: string, displayFile: string, maxBytes: number, problems: McpConfigProblem[], required = false): Promise<unknown> {
  let text: string | undefined;
  try {
    text = await readBoundedTextFile(file, maxBytes);
  } catch (error) {
    problems.push({ displayFile, jsonPath: '', message: `cannot read ${file}: ${describeThrown(error)}` });
    return undefined;
  }
  if (text === undefined) {
    if (required) problems.push({ displayFile, jsonPath: '', message: `${file} does not exist` });
    return undefined;
  }
  return parseText(text, displayFile, problems);
}

function parseText(text: string, displayFile: string, problems: McpConfigProblem[]): unknown {
  const parsed = parseBoundedJson(text);
  if (parsed.ok) return parsed.value;
  problems.push({ displayFile, jsonPath: '', message: `not valid JSON: ${parsed.error}` });
  return undefined;
}

function samePath(a: string, b: string): boolean {
  const norm = (p: string): string => path.resolve(p).replace(/[\\/]+$/, '');
  return process.platform === 'win32' ? norm(a).toLowerCase() === norm(b).toLowerCase() : norm(a) === norm(b);
}
