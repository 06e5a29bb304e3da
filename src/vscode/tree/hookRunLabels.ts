import { outcomeWord } from '../../hooks/hookRunStats';
import type { HookRunRecord, HookRunStatus } from '../../hooks/hookRunTypes';
import { oneLine } from '../../shared/oneLine';

/**
 * Words for the Hook Runs tree, kept pure (no vscode) so the texts are unit-tested:
 * "PreToolUse · Bash · npm test", "deny · 12 ms", "asked → allow · 3.2 s".
 */

const MAX_SUMMARY = 60;
const MAX_LABEL = 100;

/** "12 ms", "3.2 s", "1 m 5 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} m ${Math.round((ms - minutes * 60_000) / 1000)} s`;
}

/** What the hook input is about: the command, file path, pattern, prompt… (undefined when nothing fits). */
export function inputSummary(input: Readonly<Record<string, unknown>>): string | undefined {
  const toolInput = input['tool_input'];
  if (toolInput && typeof toolInput === 'object') {
    const t = toolInput as Record<string, unknown>;
    for (const key of ['command', 'file_path', 'path', 'pattern', 'url', 'description', 'prompt']) {
      const value = t[key];
      if (typeof value === 'string' && value.trim() !== '') return oneLine(value, MAX_SUMMARY);
    }
  }
  for (const key of ['prompt', 'message', 'reason', 'trigger']) {
    const value = input[key];
    if (typeof value === 'string' && value.trim() !== '') return oneLine(value, MAX_SUMMARY);
  }
  return undefined;
}

/** Label of an event occurrence: event, match value and input summary joined by " · ". */
export function occurrenceLabel(record: HookRunRecord): string {
  const parts: string[] = [record.event];
  if (record.matchValue) parts.push(record.matchValue);
  const summary = inputSummary(record.input);
  if (summary && summary !== record.matchValue) parts.push(summary);
  return parts.join(' · ');
}

/** Label of one execution: the hook's command or prompt, or its code label (`built-in: max steps`). */
export function runLabel(record: HookRunRecord): string {
  return oneLine(record.hookLabel || record.hookId, MAX_LABEL);
}

/** The decision word of a run, e.g. `deny`, `asked → allow`, `failed`, `no decision`, or `running…` (the same words as the settings-file lenses). */
export function decisionText(record: HookRunRecord): string {
  return record.status === 'running' ? 'running…' : outcomeWord(record);
}

/** Description of one execution: "deny · 12 ms", "asked → allow · 3.2 s", "running…". */
export function runDescription(record: HookRunRecord): string {
  const decision = record.effect === undefined ? decisionText(record) : `${decisionText(record)} · ${record.effect}`;
  return record.status === 'running' || record.durationMs === undefined ? decision : `${decision} · ${formatDuration(record.durationMs)}`;
}

/** How an ask was answered: "allow by user", "deny by fallback", or "cancelled (Stop)" when Stop settled it. */
export function askAnswerText(permission: NonNullable<HookRunRecord['permission']>): string {
  return permission.cancelled ? 'cancelled (Stop)' : `${permission.decision} by ${permission.decidedBy}`;
}

/** Why the run ended as it did, when anyone said: the hook's reason, the error, the ask's answer. */
export function runReason(record: HookRunRecord): string | undefined {
  return record.error ?? record.outcome?.reason ?? record.permission?.reason;
}

/** Statuses the "blocked / asked / failed" filter keeps. */
export function needsAttention(status: HookRunStatus, record?: HookRunRecord): boolean {
  if (status === 'blocked' || status === 'asked' || status === 'failed' || status === 'timed-out') return true;
  // A PreToolUse hook that says deny with status ok (e.g. a PermissionRequest deny) is still a block.
  return status === 'ok' && (record?.outcome?.decision === 'deny' || record?.outcome?.decision === 'stop');
}
