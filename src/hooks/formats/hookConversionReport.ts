import type { ConvertedHook, HookConversion } from './hookConversion';

/**
 * How "Convert Hooks" reads to a person, the same in `hookwise hooks convert` and the VS Code
 * command: the `.claude/settings.json` fragment, what is not converted and why, and the rule.
 */

/** The rule, in one sentence, printed with every result (docs/formats.md, "Converting"). */
export const CONVERSION_RULE =
  "A hook converts only where its agent sends Claude Code's input for that event and reads its exit codes, output, failures and time limit as Claude Code does: Codex's hooks.json and config.toml (SessionStart, SessionEnd, UserPromptSubmit, Stop, SubagentStop, PostCompact) and Copilot's PascalCase SessionEnd, with one command for every platform and no per-hook cwd or env. Cursor, Gemini, Windsurf and Cline hooks read their own agent's input, so none of them converts.";

/** After writing, the original still loads: Hookwise (and Copilot and Cursor, which read .claude files) would run the hook twice. */
export const TWICE_NOTE =
  'Hookwise also reads the original file, and Copilot and Cursor read .claude/settings.json: once the entries are written, remove the converted hooks from the original file (or turn its format off with hookwise.hooks.formats), or they run twice.';

/** `{"hooks": {Event: [{matcher?, hooks: [handler]}]}}`, one group per event and matcher, in order. */
export function settingsFragment(hooks: readonly ConvertedHook[]): { hooks: Record<string, { matcher?: string; hooks: ConvertedHook['handler'][] }[]> } {
  const out: Record<string, { matcher?: string; hooks: ConvertedHook['handler'][] }[]> = {};
  for (const hook of hooks) {
    const groups = (out[hook.event] ??= []);
    const group = groups.find((g) => g.matcher === hook.matcher);
    if (group !== undefined) group.hooks.push(hook.handler);
    else groups.push({ ...(hook.matcher !== undefined ? { matcher: hook.matcher } : {}), hooks: [hook.handler] });
  }
  return { hooks: out };
}

/** Plain text for the CLI. */
export function conversionText(c: HookConversion): string {
  const lines: string[] = [];
  if (c.converted.length > 0) {
    lines.push(`Converted (${c.converted.length}), as .claude/settings.json entries:`, JSON.stringify(settingsFragment(c.converted), null, 2));
    for (const h of c.converted) lines.push(`  ${h.from} → hooks.${h.event}${h.matcher !== undefined ? ` [${h.matcher}]` : ''}`);
    for (const caveat of c.caveats) lines.push(`  note: ${caveat}`);
  } else lines.push('Nothing converts exactly.');
  if (c.notConverted.length > 0) {
    lines.push(`Not converted (${c.notConverted.length}):`);
    for (const n of c.notConverted) lines.push(`  ${n.label}`, `      ${n.reason}`);
  }
  lines.push(`Rule: ${CONVERSION_RULE}`);
  if (c.converted.length > 0) lines.push(TWICE_NOTE);
  return `${lines.join('\n')}\n`;
}

/** A Markdown page for the VS Code preview; `target` names the file the entries would go to. */
export function conversionMarkdown(c: HookConversion, source: string, target: string): string {
  const lines = [`# Convert ${source}`, ''];
  if (c.converted.length > 0) {
    lines.push(
      `## ${c.converted.length} ${c.converted.length === 1 ? 'entry' : 'entries'} for ${target}`,
      '',
      '```json',
      JSON.stringify(settingsFragment(c.converted), null, 2),
      '```',
      '',
    );
    for (const h of c.converted) lines.push(`- ${code(h.from)} → ${code(`hooks.${h.event}`)}${h.matcher !== undefined ? ` matcher ${code(h.matcher)}` : ''}`);
    for (const caveat of c.caveats) lines.push(`- Note: ${caveat}`);
    lines.push('', TWICE_NOTE, '');
  } else lines.push('Nothing in this file converts exactly.', '');
  if (c.notConverted.length > 0) {
    lines.push(`## Not converted (${c.notConverted.length})`, '');
    for (const n of c.notConverted) lines.push(`- ${code(n.label)}: ${n.reason}`);
    lines.push('');
  }
  lines.push('## The rule', '', CONVERSION_RULE, '');
  return lines.join('\n');
}

function code(text: string): string {
  return `\`${text.replace(/`/g, "'")}\``;
}
