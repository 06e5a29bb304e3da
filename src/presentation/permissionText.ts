import type { PermissionRequest } from '../hooks/hookRunTypes';
import { describeSource } from '../configFiles/hookSource';
import { mcpToolParts } from '../mcp/mcpToolNames';

/**
 * The words of the approval popup, pure so they are unit-tested: the question names the tool
 * and the agent, the detail gives the input summary, the reason and who asked.
 */

/** The popup's buttons. For a hook's ask only Allow / Deny: that hook wants a person every time. */
export const PermissionButtons = {
  allow: 'Allow',
  allowSession: 'Allow for This Session',
  alwaysAllow: 'Always Allow',
  deny: 'Deny',
} as const;

/** "Allow Bash for the main agent?", "Allow Write for subagent Explore (a1b2c3d4)?", "Allow tool echo of MCP server fixture for the main agent?". */
export function permissionQuestion(request: PermissionRequest): string {
  const mcp = request.toolName === undefined ? undefined : mcpToolParts(request.toolName);
  const what = mcp ? `tool ${mcp.tool} of MCP server ${mcp.server}` : (request.toolName ?? request.event);
  const who = request.parentAgentId === null ? 'the main agent' : `subagent ${request.agentType} (${shortId(request.agentId)})`;
  return `Allow ${what} for ${who}?`;
}

/** The popup's detail: input summary, reason, and the hook that asked (or the rule to be written). */
export function permissionDetail(request: PermissionRequest, settingsFile = '.claude/settings.local.json'): string {
  const lines: string[] = [];
  // An MCP tool's arguments are the server's own: a `command` or `path` key means nothing special there.
  const summary = request.toolName?.startsWith('mcp__') ? jsonSummary(request.toolInput) : toolInputSummary(request.toolInput);
  if (summary) lines.push(summary, '');
  if (request.reason) lines.push(`Reason: ${request.reason}`);
  if (request.kind === 'hook') {
    for (const asker of request.askedBy) lines.push(`Asked by hook: ${asker.hookLabel}`, `  ${describeSource(asker.source)}`);
  } else if (request.suggestedRule) {
    lines.push(`"Always Allow" adds ${request.suggestedRule} to permissions.allow in ${settingsFile}.`);
  }
  return lines.join('\n');
}

/** Buttons for `request`, in order. "Always Allow" needs a rule and a place to write it. */
export function permissionButtons(request: PermissionRequest, canWriteRule: boolean): string[] {
  if (request.kind === 'hook') return [PermissionButtons.allow, PermissionButtons.deny];
  // No rule to grant (a protected write): Allow for This Session would only mean "once".
  if (!request.suggestedRule) return [PermissionButtons.allow, PermissionButtons.deny];
  const buttons: string[] = [PermissionButtons.allow, PermissionButtons.allowSession];
  if (request.suggestedRule && canWriteRule) buttons.push(PermissionButtons.alwaysAllow);
  buttons.push(PermissionButtons.deny);
  return buttons;
}

const MAX_SUMMARY = 600;

/** The command, the path, or a short JSON of the input. */
export function toolInputSummary(input: Readonly<Record<string, unknown>> | undefined): string {
  if (!input) return '';
  const command = input['command'];
  if (typeof command === 'string') return clip(`$ ${command}`);
  const file = input['file_path'] ?? input['path'];
  if (typeof file === 'string') return clip(file);
  return jsonSummary(input);
}

function jsonSummary(input: Readonly<Record<string, unknown>> | undefined): string {
  if (!input) return '';
  try {
    return clip(JSON.stringify(input, null, 1) ?? '');
  } catch {
    return '';
  }
}

function clip(text: string): string {
  return text.length <= MAX_SUMMARY ? text : `${text.slice(0, MAX_SUMMARY - 1)}…`;
}

function shortId(id: string): string {
  return id.length > 12 ? id.slice(0, 8) : id;
}
