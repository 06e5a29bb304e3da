import path from 'node:path';

/**
 * Every event a hook can subscribe to (docs/hooks.md §1): Claude Code's events that have a
 * meaning in an editor agent, configurable by the same names in `.claude/settings.json`,
 * then Hookwise's own lifecycle events (one per point of the agent loop). The string value is the
 * configuration name.
 */
export const HookEvent = {
  SessionStart: 'SessionStart',
  UserPromptSubmit: 'UserPromptSubmit',
  PreToolUse: 'PreToolUse',
  PermissionRequest: 'PermissionRequest',
  PostToolUse: 'PostToolUse',
  PostToolUseFailure: 'PostToolUseFailure',
  Notification: 'Notification',
  Stop: 'Stop',
  SubagentStart: 'SubagentStart',
  SubagentStop: 'SubagentStop',
  PreCompact: 'PreCompact',
  SessionEnd: 'SessionEnd',
  PostToolBatch: 'PostToolBatch',
  UserPromptExpansion: 'UserPromptExpansion',
  StopFailure: 'StopFailure',
  PostCompact: 'PostCompact',
  PermissionDenied: 'PermissionDenied',
  Setup: 'Setup',
  TaskCreated: 'TaskCreated',
  TaskCompleted: 'TaskCompleted',
  Elicitation: 'Elicitation',
  ElicitationResult: 'ElicitationResult',
  ConfigChange: 'ConfigChange',
  InstructionsLoaded: 'InstructionsLoaded',
  CwdChanged: 'CwdChanged',
  FileChanged: 'FileChanged',
  DirectoryAdded: 'DirectoryAdded',
  MessageDisplay: 'MessageDisplay',
  ExecutionStart: 'ExecutionStart',
  ExecutionEnd: 'ExecutionEnd',
  BeforeStep: 'BeforeStep',
  AfterStep: 'AfterStep',
  BeforeInference: 'BeforeInference',
  BeforeToolSelection: 'BeforeToolSelection',
  AfterInference: 'AfterInference',
  AgentFailed: 'AgentFailed',
} as const;

/** The name of one hook event. */
export type HookEvent = (typeof HookEvent)[keyof typeof HookEvent];

/** Claude Code's events that Hookwise fires, in Claude Code's own order (its `HOOK_EVENTS`). */
export const CLAUDE_HOOK_EVENTS = [
  HookEvent.PreToolUse,
  HookEvent.PostToolUse,
  HookEvent.PostToolUseFailure,
  HookEvent.PostToolBatch,
  HookEvent.Notification,
  HookEvent.UserPromptSubmit,
  HookEvent.UserPromptExpansion,
  HookEvent.SessionStart,
  HookEvent.SessionEnd,
  HookEvent.Stop,
  HookEvent.StopFailure,
  HookEvent.SubagentStart,
  HookEvent.SubagentStop,
  HookEvent.PreCompact,
  HookEvent.PostCompact,
  HookEvent.PermissionRequest,
  HookEvent.PermissionDenied,
  HookEvent.Setup,
  HookEvent.TaskCreated,
  HookEvent.TaskCompleted,
  HookEvent.Elicitation,
  HookEvent.ElicitationResult,
  HookEvent.ConfigChange,
  HookEvent.InstructionsLoaded,
  HookEvent.CwdChanged,
  HookEvent.FileChanged,
  HookEvent.DirectoryAdded,
  HookEvent.MessageDisplay,
] as const satisfies readonly HookEvent[];

/**
 * Claude Code events with no meaning in Hookwise (agent teams, git worktrees Claude Code
 * creates itself, switching the model mid-session). Config names them without error; they
 * never fire. docs/hooks.md §1 says why per event.
 */
export const NOT_APPLICABLE_CLAUDE_EVENTS = ['TeammateIdle', 'WorktreeCreate', 'WorktreeRemove', 'PreModelSwitch', 'PostModelSwitch'] as const;

/** Hookwise's own lifecycle events (ExecutionStart … AgentFailed; docs/hooks.md §1). */
export const LIFECYCLE_HOOK_EVENTS = [
  HookEvent.ExecutionStart,
  HookEvent.ExecutionEnd,
  HookEvent.BeforeStep,
  HookEvent.AfterStep,
  HookEvent.BeforeInference,
  HookEvent.BeforeToolSelection,
  HookEvent.AfterInference,
  HookEvent.AgentFailed,
] as const satisfies readonly HookEvent[];

/** All events, Claude Code's first. */
export const HOOK_EVENTS: readonly HookEvent[] = [...CLAUDE_HOOK_EVENTS, ...LIFECYCLE_HOOK_EVENTS];

const HOOK_EVENT_SET: ReadonlySet<string> = new Set(HOOK_EVENTS);
const NOT_APPLICABLE_SET: ReadonlySet<string> = new Set(NOT_APPLICABLE_CLAUDE_EVENTS);

/** True when `name` is a known event name (case-sensitive, like Claude Code). */
export function isHookEvent(name: string): name is HookEvent {
  return HOOK_EVENT_SET.has(name);
}

/**
 * True when `name` is one of Claude Code's event names: every event Hookwise fires plus the
 * {@link NOT_APPLICABLE_CLAUDE_EVENTS}. Config uses it to tell "known but never fired here"
 * (accepted quietly) from "unknown" (a typo: warned about).
 */
export function isKnownClaudeEvent(name: string): boolean {
  return NOT_APPLICABLE_SET.has(name) || (CLAUDE_HOOK_EVENTS as readonly string[]).includes(name);
}

/**
 * The input field a config matcher string is tested against, per event (Claude Code's
 * rule). Events without one ignore the matcher: every group runs. FileChanged's matcher is
 * tested against the file's name, not its path (see {@link matcherValue}).
 */
export const MATCHER_FIELD: Readonly<Partial<Record<HookEvent, string>>> = {
  PreToolUse: 'tool_name',
  PostToolUse: 'tool_name',
  PostToolUseFailure: 'tool_name',
  PermissionRequest: 'tool_name',
  PermissionDenied: 'tool_name',
  Notification: 'notification_type',
  SessionStart: 'source',
  SessionEnd: 'reason',
  PreCompact: 'trigger',
  PostCompact: 'trigger',
  SubagentStart: 'agent_type',
  SubagentStop: 'agent_type',
  StopFailure: 'error',
  UserPromptExpansion: 'command_name',
  ConfigChange: 'source',
  FileChanged: 'file_path',
  Setup: 'trigger',
  InstructionsLoaded: 'load_reason',
  Elicitation: 'mcp_server_name',
  ElicitationResult: 'mcp_server_name',
  BeforeInference: 'model',
  BeforeToolSelection: 'model',
  AfterInference: 'model',
};

/**
 * The value an event's matcher is tested against in `input`, or undefined for events
 * without a matcher. FileChanged matches the base name (`.envrc|.env`), as Claude Code does.
 */
export function matcherValue(event: HookEvent, input: Readonly<Record<string, unknown>>): string | undefined {
  const field = MATCHER_FIELD[event];
  if (field === undefined) return undefined;
  const raw = input[field];
  if (typeof raw !== 'string') return undefined;
  return event === HookEvent.FileChanged ? path.basename(raw) : raw;
}

/** Events whose input carries a tool call (`tool_name`, `tool_input`). */
export const TOOL_EVENTS: ReadonlySet<HookEvent> = new Set<HookEvent>([
  HookEvent.PreToolUse,
  HookEvent.PermissionRequest,
  HookEvent.PostToolUse,
  HookEvent.PostToolUseFailure,
  HookEvent.PermissionDenied,
]);
