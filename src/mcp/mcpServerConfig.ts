import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { ScriptPin } from '../hooks/config/scriptPins';
import { formatJsonPath } from '../configFiles/jsonPath';
import type { JsonSegment } from '../configFiles/jsonPath';

/** Where a server definition came from; decides trust (project servers need approval) and precedence. */
export type McpServerScope = 'flag' | 'local' | 'project' | 'user' | 'setting';

/** Longest string accepted in a server definition (a command, an argument, a header value). */
const MAX_STRING = 8 * 1024;
/** Most arguments, env entries or headers of one server. */
const MAX_ENTRIES = 256;
/** Most servers read from one source. */
export const MAX_SERVERS_PER_SOURCE = 100;

const boundedString = z.string().max(MAX_STRING);
const stringMap = z.record(z.string().max(256), boundedString).refine((m) => Object.keys(m).length <= MAX_ENTRIES, `at most ${MAX_ENTRIES} entries`);

/** Claude Code's stdio server entry: `type` is optional (`stdio` when absent). */
const stdioSchema = z.object({
  type: z.literal('stdio').optional(),
  command: boundedString.min(1),
  args: z.array(boundedString).max(MAX_ENTRIES).optional(),
  env: stringMap.optional(),
  cwd: boundedString.optional(),
});

const remoteSchema = z.object({
  type: z.enum(['http', 'sse']),
  url: boundedString.min(1),
  headers: stringMap.optional(),
});

/** One `mcpServers` entry as written (before `${VAR}` expansion). */
export const mcpServerEntrySchema = z.union([stdioSchema, remoteSchema]);

/** A server definition ready to start: variables expanded, the origin known. */
export type McpServerDefinition =
  | {
      readonly name: string;
      readonly transport: 'stdio';
      readonly command: string;
      readonly args: readonly string[];
      readonly env: Readonly<Record<string, string>>;
      readonly cwd?: string;
      readonly scope: McpServerScope;
      /** `.mcp.json`, `~/.claude.json`, `--mcp-config` … for messages. */
      readonly displayFile: string;
      /** Approval key: sha256 of the name, the definition as written and the pinned scripts (project servers are approved per key). */
      readonly hash: string;
      /** sha256 of the name and the definition as written, without the scripts ("Add MCP Server…" approves this). */
      readonly entryHash?: string;
      /** The entry as written, before `${VAR}` expansion (the approval shows this, not the expanded secrets). */
      readonly written?: Readonly<Record<string, unknown>>;
      /** Workspace files the command runs, pinned by content into `hash` (mcpScriptPins.ts). */
      readonly scripts?: readonly ScriptPin[];
    }
  | {
      readonly name: string;
      readonly transport: 'http' | 'sse';
      readonly url: string;
      readonly headers: Readonly<Record<string, string>>;
      readonly scope: McpServerScope;
      readonly displayFile: string;
      readonly hash: string;
      readonly entryHash?: string;
      readonly written?: Readonly<Record<string, unknown>>;
    };

/** A problem with one server entry or file; the other servers still load. */
export interface McpConfigProblem {
  readonly displayFile: string;
  /** e.g. `mcpServers.github.url`. */
  readonly jsonPath: string;
  readonly message: string;
}

/** What parsing one `mcpServers` object gave. */
export interface ParsedMcpServers {
  readonly servers: McpServerDefinition[];
  readonly problems: McpConfigProblem[];
}

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Expands `${VAR}` and `${VAR:-default}` in `text` from `env`, as Claude Code does in
 * `.mcp.json`. Returns the names of variables that are unset and have no default.
 */
export function expandVariables(text: string, env: NodeJS.ProcessEnv): { value: string; missing: string[] } {
  const missing: string[] = [];
  const value = text.replace(VARIABLE, (_whole, name: string, fallback: string | undefined) => {
    const set = env[name];
    if (set !== undefined) return set;
    if (fallback !== undefined) return fallback;
    missing.push(name);
    return '';
  });
  return { value, missing };
}

/**
 * Parses an `mcpServers` object (`{ name: entry }`) found at `at` in `displayFile`. Each bad
 * entry is one problem naming its path; a server whose variables are unset is skipped with a
 * problem (it would start with a broken command or URL).
 */
export function parseMcpServers(
  value: unknown,
  o: { readonly scope: McpServerScope; readonly displayFile: string; readonly at: readonly JsonSegment[]; readonly env: NodeJS.ProcessEnv },
): ParsedMcpServers {
  const servers: McpServerDefinition[] = [];
  const problems: McpConfigProblem[] = [];
  const where = (...more: JsonSegment[]): string => formatJsonPath([...o.at, ...more]);
  if (value === undefined) return { servers, problems };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    problems.push({ displayFile: o.displayFile, jsonPath: where(), message: 'must be an object of servers by name' });
    return { servers, problems };
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_SERVERS_PER_SOURCE)
    problems.push({ displayFile: o.displayFile, jsonPath: where(), message: `more than ${MAX_SERVERS_PER_SOURCE} servers; the rest are ignored` });
  for (const [name, raw] of entries.slice(0, MAX_SERVERS_PER_SOURCE)) {
    if (name.trim() === '' || name.length > 128) {
      problems.push({ displayFile: o.displayFile, jsonPath: where(name), message: 'a server name must be 1 to 128 characters' });
      continue;
    }
    const parsed = mcpServerEntrySchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const detail = describeEntryIssue(raw, issue);
      problems.push({ displayFile: o.displayFile, jsonPath: where(name, ...detail.path), message: `server "${name}" is off: ${detail.message}` });
      continue;
    }
    const missing = new Set<string>();
    const x = (text: string): string => {
      const out = expandVariables(text, o.env);
      for (const m of out.missing) missing.add(m);
      return out.value;
    };
    const xMap = (m: Readonly<Record<string, string>> | undefined): Record<string, string> =>
      Object.fromEntries(Object.entries(m ?? {}).map(([k, v]) => [k, x(v)]));
    const entry = parsed.data;
    // The name is part of the key: a renamed server is a new server (it would take over another's `mcp__name__*` rules).
    const key = serverEntryHash(name, entry);
    const base = { name, scope: o.scope, displayFile: o.displayFile, hash: key, entryHash: key, written: entry };
    const server: McpServerDefinition =
      'command' in entry
        ? {
            ...base,
            transport: 'stdio',
            command: x(entry.command),
            args: (entry.args ?? []).map(x),
            env: xMap(entry.env),
            ...(entry.cwd ? { cwd: x(entry.cwd) } : {}),
          }
        : { ...base, transport: entry.type, url: x(entry.url), headers: xMap(entry.headers) };
    if (missing.size > 0) {
      problems.push({
        displayFile: o.displayFile,
        jsonPath: where(name),
        message: `server "${name}" is off: environment variable${missing.size > 1 ? 's' : ''} ${[...missing].join(', ')} not set (use \${VAR:-default} for a default)`,
      });
      continue;
    }
    servers.push(server);
  }
  return { servers, problems };
}

/** The approval key of server `name` defined by `entry` as written, before its scripts are pinned. */
export function serverEntryHash(name: string, entry: unknown): string {
  return definitionHash({ v: 2, name, entry });
}

/** A stable hash of an entry as written (keys sorted), so re-ordering keys does not re-ask. */
export function definitionHash(entry: unknown): string {
  return createHash('sha256').update(stableJson(entry)).digest('hex');
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** The first zod issue of a bad entry, worded for a user. */
function describeEntryIssue(raw: unknown, issue: z.core.$ZodIssue | undefined): { path: JsonSegment[]; message: string } {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { path: [], message: 'an entry must be an object' };
  const r = raw as Record<string, unknown>;
  if (r.type !== undefined && r.type !== 'stdio' && r.type !== 'http' && r.type !== 'sse')
    return { path: ['type'], message: `type must be "stdio", "http" or "sse" (got ${JSON.stringify(r.type)})` };
  if ((r.type === 'http' || r.type === 'sse') && typeof r.url !== 'string') return { path: ['url'], message: `a ${r.type} server needs a "url" string` };
  if (r.type !== 'http' && r.type !== 'sse' && typeof r.command !== 'string')
    return { path: ['command'], message: 'a stdio server needs a "command" string (or set "type": "http" with a "url")' };
  // Union issues nest the branch's issues; report the deepest path a user can find.
  const inner = issue && 'errors' in issue && Array.isArray(issue.errors) ? (issue.errors as z.core.$ZodIssue[][]).flat()[0] : issue;
  const path = (inner?.path ?? []).filter((p): p is string | number => typeof p === 'string' || typeof p === 'number');
  return { path, message: inner?.message ?? 'invalid entry' };
}
