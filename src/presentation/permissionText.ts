import type { PermissionRequest } from '../hooks/hookRunTypes';
import { describeSource } from '../configFiles/hookSource';
import { mcpToolParts } from '../mcp/mcpToolNames';
import { fileRuleChoices } from '../permissions/fileRuleChoices';

/**
 * The words of the approval popup, pure so they are unit-tested: the question names the tool
 * and the agent, the detail gives the input summary, the reason and who asked.
 */

/**
 * The popup's buttons, at most four, no two doing the same: Deny is also the popup's close
 * button (Escape), so no separate Cancel. For a hook's ask only Allow / Deny (and Review
 * Diff… for a file write): that hook wants a person every time.
 */
export const PermissionButtons = {
  allow: 'Allow',
  allowSession: 'Allow for This Session',
  alwaysAllow: 'Always Allow',
  /** A file rule: opens a picker of the folder's rule and the file's (permissionRulePicks). */
  alwaysAllowPick: 'Always Allow…',
  /** A file rule with nowhere to save it: the same picker, session choices only. */
  allowSessionPick: 'Allow for This Session…',
  /** Closes the popup; the answer comes from the diff's title bar (Allow / Deny). */
  reviewDiff: 'Review Diff…',
  deny: 'Deny',
} as const;

/** "Allow Bash for the main agent?", "Allow Write for subagent Explore (a1b2c3d4)?", "Allow tool echo of MCP server fixture for the main agent?". */
export function permissionQuestion(request: PermissionRequest): string {
  const mcp = request.toolName === undefined ? undefined : mcpToolParts(request.toolName);
  const what = mcp ? `tool ${mcp.tool} of MCP server ${mcp.server}` : (request.toolName ?? request.event);
  const who = request.parentAgentId === null ? 'the main agent' : `subagent ${request.agentType} (${shortId(request.agentId)})`;
  return `Allow ${what} for ${who}?`;
}

/**
 * The popup's detail: input summary, reason, and the hook that asked (or the rule to be written).
 * `settingsFile` null: there is no file to write a rule to (an untrusted folder, no folder): the
 * detail says the rule is kept in memory for the session only.
 */
export function permissionDetail(request: PermissionRequest, settingsFile: string | null = '.claude/settings.local.json', reviewable = false): string {
  const lines: string[] = [];
  // An MCP tool's arguments are the server's own: a `command` or `path` key means nothing special there.
  const summary = request.toolName?.startsWith('mcp__') ? jsonSummary(request.toolInput) : toolInputSummary(request.toolInput);
  if (summary) lines.push(summary, '');
  if (request.reason) lines.push(`Reason: ${request.reason}`);
  if (request.kind === 'hook') {
    for (const asker of request.askedBy) lines.push(`Asked by hook: ${asker.hookLabel}`, `  ${describeSource(asker.source)}`);
  } else if (request.suggestedRule && settingsFile === null) {
    lines.push(
      `No rule is written to a file here (an untrusted folder, or no folder open): "Allow for This Session" keeps ${request.suggestedRule} in memory until the session ends.`,
    );
  } else if (request.suggestedRule && offersRulePicker(request.suggestedRule, reviewable)) {
    const rules = (fileRuleChoices(request.suggestedRule) ?? []).map((c) => c.rule).join(' or ');
    lines.push(`"Always Allow…" offers ${rules}, for permissions.allow in ${settingsFile} or for this session.`);
  } else if (request.suggestedRule) {
    lines.push(`"Always Allow" adds ${request.suggestedRule} to permissions.allow in ${settingsFile}.`);
  }
  if (reviewable) lines.push('"Review Diff…" opens the change with Allow and Deny in its title bar.');
  return lines.join('\n');
}

/**
 * Buttons for `request`, in order, at most four; the last (Deny) is the close button.
 * "Always Allow" needs a rule and a place to write it. `reviewable`: the proposed change can
 * be shown in a diff (Review Diff…). A file rule with a folder to offer, or beside Review
 * Diff…, gets the picker ("Always Allow…") that also holds the session choices.
 */
export function permissionButtons(request: PermissionRequest, canWriteRule: boolean, reviewable = false): string[] {
  const review = reviewable ? [PermissionButtons.reviewDiff] : [];
  // No rule to grant (a protected write): Allow for This Session would only mean "once".
  if (request.kind === 'hook' || !request.suggestedRule) return [PermissionButtons.allow, ...review, PermissionButtons.deny];
  if (offersRulePicker(request.suggestedRule, reviewable)) {
    return [PermissionButtons.allow, ...review, canWriteRule ? PermissionButtons.alwaysAllowPick : PermissionButtons.allowSessionPick, PermissionButtons.deny];
  }
  const buttons: string[] = [PermissionButtons.allow, PermissionButtons.allowSession];
  if (canWriteRule) buttons.push(PermissionButtons.alwaysAllow);
  buttons.push(PermissionButtons.deny);
  return buttons;
}

/** One entry of the "Always Allow…" picker. */
export interface PermissionRulePick {
  readonly label: string;
  readonly description: string;
  readonly rule: string;
  readonly scope: 'session' | 'always';
}

/**
 * The "Always Allow…" picker for a file rule: the folder's rule first, then the exact file;
 * saved for good (only with a settings file to write) and then for this session only.
 */
export function permissionRulePicks(suggestedRule: string, settingsFile: string | undefined): PermissionRulePick[] {
  const choices = fileRuleChoices(suggestedRule) ?? [{ rule: suggestedRule, covers: 'file' as const, target: suggestedRule }];
  const covers = (c: (typeof choices)[number]): string => (c.covers === 'folder' ? `every file under ${c.target}` : `only ${c.target}`);
  const always = settingsFile
    ? choices.map((c) => ({ label: `Always allow ${c.rule}`, description: `${covers(c)}; saved to ${settingsFile}`, rule: c.rule, scope: 'always' as const }))
    : [];
  const session = choices.map((c) => ({ label: `Allow ${c.rule} for this session`, description: covers(c), rule: c.rule, scope: 'session' as const }));
  return [...always, ...session];
}

/** A file rule gets the picker when there is a folder to offer, or when Review Diff… takes the fourth place. */
function offersRulePicker(suggestedRule: string, reviewable: boolean): boolean {
  const choices = fileRuleChoices(suggestedRule);
  return choices !== undefined && (reviewable || choices.length > 1);
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
