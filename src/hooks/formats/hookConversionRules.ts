import type { HookFormatId } from './hookFormat';

/**
 * The rule table of "Convert Hooks" (docs/formats.md, "Converting"): for each format and native
 * event, either how its matcher reads in Claude's syntax (the hook converts), or why the same
 * command under `.claude/settings.json` would behave differently (it does not).
 *
 * A hook converts only where the agent sends Claude Code's stdin for the event (field names,
 * casing, tool vocabulary), reads exit codes and JSON output as Claude Code does, fails open on a
 * crash and a timeout, and sets no environment or directory of its own. Only Codex's hooks.json
 * and Copilot's PascalCase ("VS Code compatible") entries send Claude's input at all; Cursor,
 * Gemini, Windsurf and Cline send their own, which no `.claude/settings.json` entry can reproduce.
 */

/** How the agent's matcher reads: an unanchored regex, or Claude's own rules. */
export interface ConvertibleRule {
  readonly matcher: 'unanchored' | 'claude';
}

/** Why a whole format never converts: its input is not Claude's. */
const FOREIGN_INPUT: Readonly<Partial<Record<HookFormatId, string>>> = {
  cursor:
    "Cursor sends its own input (conversation_id, Cursor's tool names such as Shell, the command text in `command`) and reads its own output (`permission`, `agent_message`, `failClosed`); under .claude/settings.json the script would get Claude Code's input and its answer would be read as Claude Code reads it",
  gemini:
    "Gemini CLI sends its own input (Gemini's tool names such as run_shell_command, its event names, GEMINI_PROJECT_DIR) and reads its output differently (JSON on any exit code, plain text with exit 2 or more denies); under .claude/settings.json the script would get Claude Code's input, and its time limit is not the only thing that would change",
  windsurf:
    "Windsurf sends its own input (`agent_action_name`, `tool_info.command_line`, …) and has no matchers (each event names what it covers); under .claude/settings.json the script would get Claude Code's input and its stdout could be read as a decision",
  cline:
    "Cline sends its own input (`preToolUse {toolName, parameters}` with Cline's tool names) and reads `{cancel, contextModification, errorMessage}`; under .claude/settings.json the script would get Claude Code's input and its answer would be ignored",
};

/** Codex events whose input and reading are Claude Code's, with what their matcher tests (Claude's field of the same name). */
const CODEX_EXACT = new Set(['SessionStart', 'SessionEnd', 'UserPromptSubmit', 'Stop', 'SubagentStop', 'PostCompact']);

const CODEX_WHY_NOT: Readonly<Record<string, string>> = {
  PreToolUse:
    'Codex reads `ask`, `approve`, `continue: false` and `suppressOutput` on PreToolUse as a failed hook and runs the tool, and sends an Edit or Write as `apply_patch` with the patch text in tool_input.command; Claude Code would ask, approve or stop, and send Edit or Write input',
  PermissionRequest: 'Codex denies (fails closed) when a PermissionRequest hook answers with `updatedPermissions` or `interrupt`; Claude Code applies them',
  PostToolUse:
    "Codex's PostToolUse also fires when a Bash command exits non-zero, with the failure as tool_response; Claude Code sends that to PostToolUseFailure with another input, and Codex's tool names (apply_patch, spawn_agent) are not Claude's",
  PreCompact: "Claude Code reads a PreCompact hook's plain stdout as compaction instructions; Codex ignores it",
  SubagentStart: 'exit 2 on SubagentStart only shows stderr in Codex; in Claude Code it stops the subagent from starting',
};

/** Copilot's PascalCase events that behave as in Claude Code. */
const COPILOT_PASCAL_EXACT = new Set(['SessionEnd']);

const COPILOT_PASCAL_WHY_NOT: Readonly<Record<string, string>> = {
  PreToolUse:
    'Copilot denies when a preToolUse hook crashes or prints output that is not JSON (it fails closed); a Claude Code hook fails open, and nothing in .claude/settings.json makes it deny on a crash but not on a timeout',
  UserPromptSubmit: 'Copilot ignores the output of a prompt hook; Claude Code would honour a block or added context from the same script',
  PreCompact: 'Copilot ignores the output of a preCompact hook; Claude Code reads its plain stdout as compaction instructions',
  SessionStart: 'Copilot reads only JSON from a sessionStart hook (plain text is a failure); Claude Code adds plain stdout to the context',
  Stop: 'Copilot reads only `decision: "block"` from a stop hook; Claude Code also honours `continue: false` and other fields the script may print',
  SubagentStop:
    'Copilot reads only `decision: "block"` from a subagentStop hook; Claude Code also honours `continue: false` and other fields the script may print',
  PostToolUse: 'Copilot reads a flat `modifiedResult` and `additionalContext`; Claude Code reads `decision: "block"` and hookSpecificOutput instead',
  PermissionRequest: 'Copilot reads a flat `behavior`; Claude Code reads only hookSpecificOutput.decision.behavior',
};

const COPILOT_CAMEL =
  "Copilot sends camelCase input (`toolName` in Copilot's vocabulary such as bash or edit, `toolArgs` as a JSON string) and reads flat output (`permissionDecision`); under .claude/settings.json the script would get Claude Code's snake_case input and its answer would be ignored";

const COPILOT_CAMEL_PRE =
  'Copilot denies when a preToolUse hook crashes or prints output that is not JSON (it fails closed) and a Claude Code hook fails open; besides, Copilot sends camelCase input (`toolName`, `toolArgs` as a JSON string) that Claude Code does not';

/** What differs for every converted hook of a format, although nothing the agent honours does. */
export const FORMAT_CAVEATS: Readonly<Partial<Record<HookFormatId, readonly string[]>>> = {
  codex: [
    "Claude Code's input has no `turn_id` (Codex's), and `model` only on SessionStart: a script that reads them gets nothing there",
    'JSON printed with an exit code other than 0 or 2 is a failed hook in Codex; Claude Code reads it: such a script would start to count',
  ],
  copilot: ["Claude Code's input has no `timestamp` (Copilot's): a script that reads it gets nothing there"],
};

/** The rule for one native event of a format: convertible (with its matcher syntax), or the reason it is not. */
export function conversionRule(format: HookFormatId, nativeEvent: string): ConvertibleRule | string {
  const foreign = FOREIGN_INPUT[format];
  if (foreign !== undefined) return foreign;
  if (format === 'codex') {
    if (CODEX_EXACT.has(nativeEvent)) return { matcher: 'unanchored' };
    return CODEX_WHY_NOT[nativeEvent] ?? `Codex's ${nativeEvent} has no Claude Code event that reads it the same way`;
  }
  // Copilot: its camelCase events send Copilot's own input; the PascalCase ones send Claude's.
  if (!/^[A-Z]/.test(nativeEvent)) return nativeEvent === 'preToolUse' ? COPILOT_CAMEL_PRE : COPILOT_CAMEL;
  if (COPILOT_PASCAL_EXACT.has(nativeEvent)) return { matcher: 'claude' };
  return COPILOT_PASCAL_WHY_NOT[nativeEvent] ?? `Copilot's ${nativeEvent} is not read as Claude Code reads it`;
}
