import type { HookVerdict } from '../agent/agentEvents';
import type { SubmitResult } from '../agent/session';
import { describeSource } from '../configFiles/hookSource';

/**
 * How agent events read to a person, shared by the front ends (the chat, the CLI): who
 * decided a tool call and how, a tool input as text, how a prompt ended. Pure and without
 * vscode; each front end keeps its own format around these words (HTML cards, JSON lines).
 */

/** A hook or permission verdict on a tool call, as the front ends show it. */
export interface VerdictView {
  readonly event: string;
  readonly decision: string;
  readonly reason?: string;
  /** What kind of party decided (`hook`, `user`, `rule`, `mode`, `fallback`), if known. */
  readonly decidedBy?: string;
  /** The whole verdict in words (see {@link verdictText}). */
  readonly text: string;
  /** Whether the verdict stopped the call (deny, stop). */
  readonly blocks: boolean;
}

/** The verdict's display fields. */
export function verdictView(verdict: HookVerdict): VerdictView {
  return {
    event: verdict.event,
    decision: verdict.decision,
    ...(verdict.reason !== undefined ? { reason: verdict.reason } : {}),
    ...(verdict.decidedBy ? { decidedBy: verdict.decidedBy.kind } : {}),
    text: verdictText(verdict),
    blocks: verdictBlocks(verdict.decision),
  };
}

/**
 * Who decided, in words: "Blocked by PreToolUse hook `.claude/settings.json › hooks.PreToolUse[0].hooks[0]`: reason",
 * "Denied by you", "Allowed by permission rule `Bash(npm test:*)` · `.claude/settings.json › permissions.allow[0]`",
 * "Allowed by permission mode bypassPermissions", "Allowed by default: Read is read-only".
 */
export function verdictText(verdict: HookVerdict): string {
  const verb = verbFor(verdict.decision);
  const by = verdict.decidedBy;
  let reason = verdict.reason?.trim();
  let who: string;
  if (!by) who = `${verdict.event} hooks`;
  else if (by.kind === 'hook') who = `${verdict.event} hook \`${describeSource(by.source)}\``;
  else if (by.kind === 'user') who = 'you';
  else if (by.kind === 'fallback') who = `the ask fallback${by.detail ? ` (${by.detail})` : ' (nobody could be asked)'}`;
  else if (by.kind === 'rule') {
    who = ruleWords(by.detail, by.file);
    // The policy's reason only restates the rule and its file, which the line already names.
    if (by.file && by.detail && reason?.includes(by.detail)) reason = undefined;
  } else if (by.kind === 'default') {
    who = 'default';
    reason ??= by.detail;
  } else who = `permission mode${by.detail ? ` ${by.detail}` : ''}`;
  return `${verb} by ${who}${reason ? `: ${reason}` : ''}`;
}

/** "permission rule Bash(npm test:*)"; with its file, both as code: "permission rule `Bash(npm test:*)` · `.claude/settings.json › permissions.allow[0]`". */
function ruleWords(rule: string | undefined, file: string | undefined): string {
  if (!file) return `permission rule${rule ? ` ${rule}` : ''}`;
  return `permission rule${rule ? ` ${codeSpan(rule)}` : ''} · ${codeSpan(file)}`;
}

/** `text` as one markdown code span, whatever backticks it holds. */
function codeSpan(text: string): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return text.startsWith('`') || text.endsWith('`') ? `${fence} ${text} ${fence}` : `${fence}${text}${fence}`;
}

/** Whether a decision stopped what it was about (deny, stop). */
export function verdictBlocks(decision: string | undefined): boolean {
  return decision === 'deny' || decision === 'stop';
}

function verbFor(decision: string): string {
  switch (decision) {
    case 'deny':
      return 'Blocked';
    case 'allow':
      return 'Allowed';
    case 'stop':
      return 'Stopped';
    case 'continue':
      return 'Continued';
    case 'ask':
      return 'Asked';
    default:
      return decision.charAt(0).toUpperCase() + decision.slice(1);
  }
}

/** Longest input JSON / result text a front end renders; the rest is replaced by a note. */
export const MAX_DISPLAY_TEXT = 20_000;

/** Pretty JSON of a tool input (strings stay as they are: unparseable arguments), cut to {@link MAX_DISPLAY_TEXT}. */
export function formatToolInput(input: unknown): string {
  if (typeof input === 'string') return clipForDisplay(input);
  try {
    return clipForDisplay(JSON.stringify(input, null, 2) ?? String(input));
  } catch {
    return String(input);
  }
}

/** `text` cut to {@link MAX_DISPLAY_TEXT}, with a note of how much was left out. */
export function clipForDisplay(text: string): string {
  if (text.length <= MAX_DISPLAY_TEXT) return text;
  return `${text.slice(0, MAX_DISPLAY_TEXT)}\n… (${text.length - MAX_DISPLAY_TEXT} more characters not shown)`;
}

/** What a prompt came to in words: "Prompt blocked by UserPromptSubmit hook …: reason", else the final answer. */
export function promptOutcomeText(result: SubmitResult): string {
  return result.status === 'blocked' ? `Prompt blocked by ${result.blockedBy}: ${result.reason}` : result.finalText;
}

/** Why a run did not complete, for a notice ("stopped: reason"); undefined when it completed or was blocked (the outcome text says so). */
export function runEndNotice(result: SubmitResult): string | undefined {
  if (result.status === 'completed' || result.status === 'blocked') return undefined;
  return `run ${result.status}${result.reason ? `: ${result.reason}` : ''}`;
}
