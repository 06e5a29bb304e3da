import { envVarNames, fenced, visible } from '../hooks/config/approvalReview';
import type { McpServerDefinition } from './mcpServerConfig';
import { normalizeNamePart } from './mcpToolNames';

/**
 * What a person approving MCP servers reads (docs/security.md): every server with every field
 * that runs code or moves data — command, args, env, cwd, url, headers — as written in the file
 * (`${TOKEN}`, not the secret it expands to), with the environment variables each would expand
 * and the workspace files its approval pins.
 */

/** The fields of `server`, one line each (`header Authorization: Bearer ${GITHUB_TOKEN} — sends $GITHUB_TOKEN`). */
export function mcpServerFields(server: McpServerDefinition): string[] {
  return rawFields(server).map(visible);
}

function rawFields(server: McpServerDefinition): string[] {
  const written = server.written ?? {};
  const text = (key: string, fallback: string): string => (typeof written[key] === 'string' ? (written[key] as string) : fallback);
  const map = (key: string, fallback: Readonly<Record<string, string>>): [string, string][] => {
    const value = written[key];
    return Object.entries(value !== null && typeof value === 'object' ? (value as Record<string, string>) : fallback).map(([k, v]) => [k, String(v)]);
  };
  const sends = (value: string): string => {
    const vars = envVarNames(value);
    return vars.length > 0 ? ` — sends ${vars.map((v) => `$${v}`).join(', ')}` : '';
  };
  const lines: string[] = [];
  if (server.transport === 'stdio') {
    const command = text('command', server.command);
    lines.push(`command: ${command}${sends(command)}`);
    const args = Array.isArray(written.args) ? (written.args as unknown[]).map(String) : [...server.args];
    if (args.length > 0) lines.push(`args: ${JSON.stringify(args)}${sends(args.join(' '))}`);
    if (server.cwd !== undefined) lines.push(`cwd: ${text('cwd', server.cwd)}`);
    for (const [name, value] of map('env', server.env)) lines.push(`env ${name}: ${value}${sends(value)}`);
    for (const pin of server.scripts ?? [])
      lines.push(`pins ${pin.path}: ${pin.digest === 'missing' ? 'missing (creating it asks again)' : pin.digest.slice(0, 19)}`);
  } else {
    const url = text('url', server.url);
    lines.push(`${server.transport} url: ${url}${sends(url)}`);
    for (const [name, value] of map('headers', server.headers)) lines.push(`header ${name}: ${value}${sends(value)}`);
  }
  return lines;
}

/** One modal entry per server: its name and source, then its fields indented. */
export function describeMcpServerFull(server: McpServerDefinition): string {
  return [visible(`${server.name} (${server.displayFile})`), ...mcpServerFields(server).map((l) => `    ${l}`)].join('\n');
}

/** The full review as markdown: every server in `servers`, with every field. */
export function mcpReviewMarkdown(title: string, servers: readonly McpServerDefinition[]): string {
  const out = [`# ${title}`, '', `${servers.length} server${servers.length === 1 ? '' : 's'}, all listed below, as written in their files.`, ''];
  for (const [i, server] of servers.entries()) {
    out.push(
      `## ${i + 1}. ${server.name} (${server.transport})`,
      '',
      `- from: ${server.displayFile}`,
      `- tools appear as mcp__${normalizeNamePart(server.name)}__*`,
      '',
      fenced(mcpServerFields(server).join('\n')),
      '',
    );
  }
  return out.join('\n');
}
