import type { HookEventResult } from '../../hooks/hookRunTypes';
import { decisionText, formatDuration, runReason } from '../tree/hookRunLabels';

/** Longest stdout, stderr or JSON block shown on the page: a hook can print a lot. */
const MAX_BLOCK_CHARS = 20_000;

/** One "Run with Sample Input" run, as the result page shows it. */
export interface SampleRunReport {
  /** The hook's id as the lens names it (`.claude/settings.json › hooks.PreToolUse[0].hooks[0]`). */
  readonly id: string;
  readonly result: HookEventResult;
  readonly input: Readonly<Record<string, unknown>>;
  /** Wall time of the whole run, including starting the hook's process. */
  readonly elapsedMs: number;
}

/**
 * The result page of "Run with Sample Input": the decision and reason, status, exit code (or
 * HTTP status) and time, then the hook's stdout and stderr, its parsed output and the input it
 * was given. Markdown; pure, so the layout is unit-tested.
 */
export function renderSampleRun(report: SampleRunReport): string {
  const { result } = report;
  const record = result.records[0];
  const lines = [`# Run with Sample Input: ${result.event}`, '', `Hook \`${tick(report.id)}\``, ''];
  if (record === undefined) {
    lines.push(`> **The hook did not run for this input.** ${notRun(result)}`, '');
  } else {
    lines.push('| | |', '|---|---|');
    const row = (name: string, value: string | undefined): void => {
      if (value !== undefined && value !== '') lines.push(`| ${name} | ${cell(value)} |`);
    };
    row('Decision', `**${decisionText(record)}**`);
    row('Reason', runReason(record) ?? result.reason);
    row('Status', record.status);
    if (record.raw?.http) {
      row('URL', record.raw.http.url);
      row('HTTP status', record.raw.http.status === undefined ? 'no response' : String(record.raw.http.status));
    } else if (record.raw) {
      row('Exit code', record.raw.exitCode === null ? `none${record.raw.signal ? ` (${record.raw.signal})` : ''}` : String(record.raw.exitCode));
    }
    row('Hook time', record.durationMs === undefined ? undefined : formatDuration(record.durationMs));
    row('Total time', formatDuration(report.elapsedMs));
    row('Command', `\`${tick(record.hookLabel)}\` (${record.actionKind})`);
    for (const w of record.warnings ?? []) row('Warning', w);
    lines.push('');
    if (record.raw) {
      const stdout = record.raw.stdoutSuppressed ? '(hidden: the hook asked suppressOutput)' : record.raw.stdout;
      lines.push(`## ${record.raw.http ? 'Response body' : 'stdout'}${record.raw.stdoutTruncated ? ' (truncated)' : ''}`, '', ...block(stdout, 'text'), '');
      lines.push(`## stderr${record.raw.stderrTruncated ? ' (truncated)' : ''}`, '', ...block(record.raw.stderr, 'text'), '');
    }
    if (record.outcome && Object.keys(record.outcome).length > 0) lines.push('## Hook output (parsed)', '', ...block(json(record.outcome), 'json'), '');
  }
  lines.push('## Input', '', ...block(json(report.input), 'json'), '');
  return lines.join('\n');
}

/** Why the only hook did not run: the runner names it as skipped (`if`, `once`), else its matcher did not match. */
function notRun(result: HookEventResult): string {
  const skipped = result.skipped?.[0];
  if (skipped) return `Skipped: ${skipped.reason}.`;
  return 'Its matcher does not match this input (check `tool_name` or the field the event matches on).';
}

/** A fenced block that its own text cannot close; "(empty)" for nothing. */
function block(text: string, language: string): string[] {
  if (text === '') return ['_(empty)_'];
  const shown = text.length > MAX_BLOCK_CHARS ? `${text.slice(0, MAX_BLOCK_CHARS)}\n… (cut at ${MAX_BLOCK_CHARS} characters)` : text;
  const longest = Math.max(2, ...[...shown.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return [`${fence}${language}`, shown.replace(/\n$/, ''), fence];
}

/** A table cell: one line, pipes escaped. */
function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

/** Text inside single backticks: a backtick of its own would end the code span. */
function tick(text: string): string {
  return text.replace(/`/g, "'");
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
