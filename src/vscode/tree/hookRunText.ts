import type { HookRunRecord } from '../../hooks/hookRunTypes';
import { describeSource } from '../../configFiles/hookSource';
import { askAnswerText, decisionText, formatDuration, runReason } from './hookRunLabels';

/**
 * The read-only document shown for one execution (`hookwise-run:` scheme): what ran, where
 * it is configured, how it ended, then the input JSON, the outcome, stdout and stderr.
 * Pure, so the layout is unit-tested.
 */
export function renderHookRun(record: HookRunRecord): string {
  const lines: string[] = [];
  const field = (name: string, value: string | undefined): void => {
    if (value !== undefined && value !== '') lines.push(`${`${name}:`.padEnd(12)}${value}`);
  };
  lines.push(`# ${record.event}${record.matchValue ? ` · ${record.matchValue}` : ''} — ${record.hookLabel}`, '');
  field('Hook', `${record.hookLabel} (${record.actionKind})`);
  field('Source', describeSource(record.source));
  // Which settings edit the hook came from: runs keep the configuration they started with.
  field('Config', record.configGeneration === undefined ? undefined : `generation ${record.configGeneration}`);
  field('Agent', record.parentAgentId === null ? `main (${record.agentId})` : `${record.agentType} (${record.agentId}, parent ${record.parentAgentId})`);
  field('Session', record.sessionId);
  field('Status', record.status);
  field('Decision', decisionText(record));
  field('Reason', runReason(record));
  field('Changed', record.effect);
  if (record.permission) field('Asked', `${askAnswerText(record.permission)}${record.permission.reason ? ` (${record.permission.reason})` : ''}`);
  field('Failure', record.failureReason);
  field('Started', new Date(record.startedAt).toISOString());
  field('Duration', record.durationMs === undefined ? undefined : formatDuration(record.durationMs));
  field('Status message', record.statusMessage);
  if (record.raw?.http) {
    field('URL', record.raw.http.url);
    field('HTTP status', record.raw.http.status === undefined ? 'no response' : String(record.raw.http.status));
  } else if (record.raw) {
    field('Exit code', record.raw.exitCode === null ? 'none' : String(record.raw.exitCode));
    field('Signal', record.raw.signal);
  }
  field('Run id', record.runId);
  lines.push('', '## Input', '', json(record.input));
  if (record.outcome && Object.keys(record.outcome).length > 0) lines.push('', '## Outcome', '', json(record.outcome));
  if (record.warnings && record.warnings.length > 0) lines.push('', '## Warnings', '', ...record.warnings.map((w) => `- ${w}`));
  if (record.raw) {
    const body = record.raw.stdoutSuppressed ? '(hidden: the hook asked suppressOutput)' : record.raw.stdout === '' ? '(empty)' : record.raw.stdout;
    lines.push('', `## ${record.raw.http ? 'Response body' : 'stdout'}${record.raw.stdoutTruncated ? ' (truncated)' : ''}`, '', body);
    lines.push('', `## stderr${record.raw.stderrTruncated ? ' (truncated)' : ''}`, '', record.raw.stderr === '' ? '(empty)' : record.raw.stderr);
  }
  return `${lines.join('\n')}\n`;
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
