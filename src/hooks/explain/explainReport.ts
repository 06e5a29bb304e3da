import type { HookExplanation } from './explainHooks';

/**
 * The "Why these hooks?" document: what the occurrence was, then each configured hook of its
 * event with ran / would run / skipped and why, in run order. Markdown, shown read-only.
 * `occurrence`: the rows come from a real occurrence (some say what ran).
 */
export function renderExplanation(
  title: string,
  input: Readonly<Record<string, unknown>>,
  rows: readonly HookExplanation[],
  occurrence = false,
  warnings: readonly string[] = [],
): string {
  const note = occurrence
    ? 'Hooks marked **ran** are this occurrence’s runs; the others are reasoned from the hook configuration as it is now.'
    : 'Nothing was run to produce this list; it uses the hook configuration as it is now.';
  const lines = [`# ${title}`, '', note, ''];
  for (const w of warnings) lines.push(`> **Warning:** ${w}`, '');
  if (rows.length === 0) lines.push('_No hooks are configured for this event._', '');
  for (const r of rows) {
    lines.push(`- **${r.outcome}** — \`${r.command.replace(/`/g, "'")}\`${r.matcher !== undefined && r.matcher !== '' ? ` (matcher \`${r.matcher}\`)` : ''}`);
    lines.push(`  - ${r.reason}`);
    if (r.source !== '') lines.push(`  - from ${r.source}`);
  }
  lines.push('', '## Input', '', '```json', boundedJson(input), '```', '');
  return lines.join('\n');
}

/** The input as shown: pretty JSON, cut at 20,000 characters (a tool input can be a whole file). */
function boundedJson(input: unknown): string {
  const text = JSON.stringify(input, null, 2) ?? '';
  return text.length > 20_000 ? `${text.slice(0, 20_000)}\n… (cut)` : text;
}
