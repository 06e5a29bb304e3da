/**
 * Every event a hook can subscribe to (docs/hooks.md §1): Claude Code's twelve events,
 * configurable by the same names in `.claude/settings.json`, then the lifecycle events
 * of the "hooks as agent skeleton" seed. The string value is the configuration name.
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
  ExecutionStart: 'ExecutionStart',
  ExecutionEnd: 'ExecutionEnd',
  BeforeStep: 'BeforeStep',
  AfterStep: 'AfterStep',
  BeforeInference: 'BeforeInference',
  AfterInference: 'AfterInference',
  AgentFailed: 'AgentFailed',
} as const;

/** The name of one hook event. */
export type HookEvent = (typeof HookEvent)[keyof typeof HookEvent];

/** Claude Code's events, in Claude Code's own order. */
export const CLAUDE_HOOK_EVENTS = [
  HookEvent.PreToolUse,
  HookEvent.PostToolUse,
  HookEvent.PostToolUseFailure,
  HookEvent.Notification,
  HookEvent.UserPromptSubmit,
  HookEvent.SessionStart,
  HookEvent.SessionEnd,
  HookEvent.Stop,
  HookEvent.SubagentStart,
  HookEvent.SubagentStop,
  HookEvent.PreCompact,
  HookEvent.PermissionRequest,
] as const satisfies readonly HookEvent[];

/** The seeds' lifecycle events (ExecutionStart … AgentFailed). */
export const LIFECYCLE_HOOK_EVENTS = [
  HookEvent.ExecutionStart,
  HookEvent.ExecutionEnd,
  HookEvent.BeforeStep,
  HookEvent.AfterStep,
  HookEvent.BeforeInference,
  HookEvent.AfterInference,
  HookEvent.AgentFailed,
] as const satisfies readonly HookEvent[];

/** All events, Claude Code's first. */
export const HOOK_EVENTS: readonly HookEvent[] = [...CLAUDE_HOOK_EVENTS, ...LIFECYCLE_HOOK_EVENTS];

/** True when `name` is a known event name (case-sensitive, like Claude Code). */
export function isHookEvent(name: string): name is HookEvent {
  return (HOOK_EVENTS as readonly string[]).includes(name);
}

/**
 * The input field a config matcher string is tested against, per event (Claude Code's
 * rule). Events without one ignore the matcher: every group runs.
 */
export const MATCHER_FIELD: Readonly<Partial<Record<HookEvent, string>>> = {
  PreToolUse: 'tool_name',
  PostToolUse: 'tool_name',
  PostToolUseFailure: 'tool_name',
  PermissionRequest: 'tool_name',
  Notification: 'notification_type',
  SessionStart: 'source',
  SessionEnd: 'reason',
  PreCompact: 'trigger',
  SubagentStart: 'agent_type',
  SubagentStop: 'agent_type',
};

/** Events whose input carries a tool call (`tool_name`, `tool_input`). */
export const TOOL_EVENTS: ReadonlySet<HookEvent> = new Set<HookEvent>([
  HookEvent.PreToolUse,
  HookEvent.PermissionRequest,
  HookEvent.PostToolUse,
  HookEvent.PostToolUseFailure,
]);
