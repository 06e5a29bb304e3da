import { z } from 'zod';
import { HOOK_EVENTS, NOT_APPLICABLE_CLAUDE_EVENTS, type HookEvent } from '../hookEvent';

/**
 * The one source of truth for hook configuration: the Claude Code
 * `hooks` object, Hookwise's extra handler fields, and the Claude settings file. JSON Schema
 * for editors is generated from these (scripts/generateSchemas.mjs); the loader validates
 * each handler with them so a bad entry is skipped, never the whole file.
 */

const timeoutSchema = z.number().positive().meta({
  markdownDescription:
    'Time limit in **seconds** (not milliseconds). Default: 60 for `command`, `http` and `agent` hooks, 30 for `prompt` hooks; at most 600. On timeout the process tree is killed.',
});

const statusMessageSchema = z.string().meta({ markdownDescription: 'Text shown in the chat while the hook runs, e.g. `Checking the command…`.' });

const modelSchema = z.string().meta({ markdownDescription: 'Model that evaluates the prompt; defaults to the configured `hookwise.model.name`.' });

const ifSchema = z.string().min(1).meta({
  markdownDescription:
    'Run the hook only when the tool call matches this permission rule, e.g. `Bash(git push:*)`, `Edit(src/**)`, `Read(.env)`. Tool events only (`PreToolUse`, `PostToolUse`, `PostToolUseFailure`, `PermissionRequest`); elsewhere the hook never runs.',
});

const onceSchema = z.boolean().meta({
  markdownDescription:
    'Run at most once per session. Honoured in agent files (`.claude/agents/*.md`); ignored, with a warning, in settings files (as Claude Code does).',
});

/** Fields every handler type accepts (Claude Code's common fields). */
const commonHandlerFields = {
  if: ifSchema.optional(),
  once: onceSchema.optional(),
} as const;

/** Hookwise's own handler fields; Claude Code ignores them, so files stay portable. */
const hookwiseHandlerFields = {
  priority: z.number().int().meta({
    markdownDescription: '**Hookwise only.** Higher runs first among hooks of the same event; equal priorities keep configuration order. Default `0`.',
  }),
  continueOnFailure: z.boolean().meta({
    markdownDescription:
      '**Hookwise only.** When the hook fails (crash, timeout, bad output) the event continues as if it had not run. Default `true`, like Claude Code; set `false` to fail closed.',
  }),
  enabled: z.boolean().meta({ markdownDescription: '**Hookwise only.** `false` keeps the hook in the file but does not load it.' }),
} as const;

/** The fields every handler type but `command` takes, in one order (the generated JSON Schemas keep it). */
const sharedHandlerFields = {
  timeout: timeoutSchema.optional(),
  statusMessage: statusMessageSchema.optional(),
  ...commonHandlerFields,
  priority: hookwiseHandlerFields.priority.optional(),
  continueOnFailure: hookwiseHandlerFields.continueOnFailure.optional(),
  enabled: hookwiseHandlerFields.enabled.optional(),
} as const;

/** `type: "command"`: a shell command that gets the event JSON on stdin. */
export const commandHandlerSchema = z
  .object({
    type: z.literal('command'),
    command: z.string().min(1).meta({
      markdownDescription:
        'Shell command run with the event JSON on stdin; `$CLAUDE_PROJECT_DIR` is the project root. Exit code 2 blocks; JSON on stdout can decide (`allow`/`deny`/`ask`), add context or rewrite input.',
    }),
    args: z
      .array(z.string())
      .max(1000)
      .meta({
        markdownDescription:
          'Exec form: `command` is the program and these are its arguments, spawned without a shell (no quoting, globbing or `$VAR` expansion; `${CLAUDE_PROJECT_DIR}` and `$CLAUDE_PROJECT_DIR` are still filled in).',
      })
      .optional(),
    shell: z
      .enum(['bash', 'sh', 'powershell', 'pwsh'])
      .meta({ markdownDescription: 'Shell that runs `command`: `bash`, `sh`, `powershell` or `pwsh`. Default: `/bin/sh` (Git Bash on Windows).' })
      .optional(),
    timeout: timeoutSchema.optional(),
    statusMessage: statusMessageSchema.optional(),
    ...commonHandlerFields,
    async: z
      .boolean()
      .meta({
        markdownDescription:
          'Run in the background without waiting (as in Claude Code). The hook cannot block or decide; its `additionalContext` and `systemMessage` reach the agent before its next model call. Async hooks are not deduplicated.',
      })
      .optional(),
    priority: hookwiseHandlerFields.priority.optional(),
    continueOnFailure: hookwiseHandlerFields.continueOnFailure.optional(),
    enabled: hookwiseHandlerFields.enabled.optional(),
  })
  .meta({ markdownDescription: 'Runs a shell command.' });

/** `type: "prompt"`: one model call that answers `{ok, reason}`. */
export const promptHandlerSchema = z
  .object({
    type: z.literal('prompt'),
    prompt: z.string().min(1).meta({
      markdownDescription:
        'Prompt for a single model call; `$ARGUMENTS` is replaced by the event JSON. The model answers `{"ok": true}` or `{"ok": false, "reason": "…"}`.',
    }),
    model: modelSchema.optional(),
    ...sharedHandlerFields,
  })
  .meta({ markdownDescription: 'Asks a model to decide.' });

/** `type: "agent"`: a read-only subagent that investigates, then answers `{ok, reason}`. */
export const agentHandlerSchema = z
  .object({
    type: z.literal('agent'),
    prompt: z.string().min(1).meta({
      markdownDescription:
        'Task for a verifier subagent with read-only tools; `$ARGUMENTS` is replaced by the event JSON. It ends with `{"ok": true}` or `{"ok": false, "reason": "…"}`.',
    }),
    model: modelSchema.optional(),
    ...sharedHandlerFields,
  })
  .meta({ markdownDescription: 'Runs a verifier subagent.' });

/** `type: "http"`: POSTs the event JSON to a URL; the response body is read like a command's stdout. */
export const httpHandlerSchema = z
  .object({
    type: z.literal('http'),
    url: z
      .string()
      .min(1)
      .regex(/^https?:\/\//i, 'must start with http:// or https://')
      .meta({
        markdownDescription:
          "URL the event JSON is POSTed to. The response body is read like a command hook's stdout; a non-2xx status, a refused connection or a timeout is a non-blocking error.",
      }),
    headers: z
      .record(z.string(), z.string())
      .meta({ markdownDescription: 'Request headers. `$VAR` / `${VAR}` are filled in only for names listed in `allowedEnvVars`; others become empty.' })
      .optional(),
    allowedEnvVars: z
      .array(z.string())
      .meta({ markdownDescription: 'Environment variables the `headers` may use (narrowed by the `httpHookAllowedEnvVars` setting).' })
      .optional(),
    ...sharedHandlerFields,
  })
  .meta({ markdownDescription: 'POSTs the event to an HTTP endpoint.' });

/** `type: "mcp_tool"` (Claude Code 2.1.118): calls a tool of a configured MCP server; its text is read like a command's stdout. */
export const mcpToolHandlerSchema = z
  .object({
    type: z.literal('mcp_tool'),
    server: z.string().min(1).meta({ markdownDescription: 'The MCP server, by its name in `.mcp.json` / `hookwise.mcp.servers`.' }),
    tool: z.string().min(1).meta({ markdownDescription: 'The tool, by its own name (without `mcp__server__`).' }),
    input: z
      .record(z.string(), z.unknown())
      .meta({
        markdownDescription:
          "The tool's arguments. String values may use `${path}` into the hook input, e.g. `${tool_input.file_path}`, `${session_id}`, `${cwd}`.",
      })
      .optional(),
    ...sharedHandlerFields,
  })
  .meta({ markdownDescription: 'Calls a tool of a configured MCP server.' });

/** One handler, discriminated on `type`. */
export const hookHandlerSchema = z.discriminatedUnion('type', [
  commandHandlerSchema,
  promptHandlerSchema,
  agentHandlerSchema,
  httpHandlerSchema,
  mcpToolHandlerSchema,
]);

/** A configured handler as validated (timeouts in seconds). */
export type HookHandlerConfig = z.infer<typeof hookHandlerSchema>;

/** What a handler runs, for labels and dedup: the command (with its args), the prompt, or the URL. */
export function handlerBody(handler: HookHandlerConfig): string {
  switch (handler.type) {
    case 'command':
      return handler.args !== undefined ? [handler.command, ...handler.args].join(' ') : handler.command;
    case 'http':
      return handler.url;
    case 'mcp_tool':
      return `mcp__${handler.server}__${handler.tool} ${JSON.stringify(handler.input ?? {})}`;
    default:
      return handler.prompt;
  }
}

/** The handler types Hookwise runs. */
export const HANDLER_TYPES = ['command', 'prompt', 'agent', 'http', 'mcp_tool'] as const;

/** Per handler type, its zod schema (the loader validates the member chosen by `type`). */
export const HANDLER_SCHEMAS = {
  command: commandHandlerSchema,
  prompt: promptHandlerSchema,
  agent: agentHandlerSchema,
  http: httpHandlerSchema,
  mcp_tool: mcpToolHandlerSchema,
} as const;

/** A matcher group: `{ matcher?, hooks: [...] }`. */
export const matcherGroupSchema = z.object({
  matcher: z
    .string()
    .meta({
      markdownDescription:
        'Which calls the group applies to. Empty, missing or `*` = all. Only letters, digits, `_` and `|` = exact names (`Write|Edit`). Anything else is an unanchored regex (`mcp__github__.*`). Case-sensitive. Ignored by events without a matcher field (`Stop`, `UserPromptSubmit`).',
    })
    .optional(),
  hooks: z.array(hookHandlerSchema).meta({ markdownDescription: 'Handlers run when the matcher matches; all matching handlers run in parallel.' }),
});

/** A matcher group as validated. */
export type MatcherGroupConfig = z.infer<typeof matcherGroupSchema>;

/** Hover text per event, shown on the keys of `hooks`. */
export const EVENT_DESCRIPTIONS: Readonly<Record<HookEvent, string>> = {
  PreToolUse:
    'Before a tool call runs (after its input is validated). Matcher tests `tool_name` (`Bash`, `Edit`, `Write`, `Read`, …). Can allow, deny, ask, rewrite the input, add context.',
  PostToolUse: 'After a tool call returned. Matcher tests `tool_name`. Can add context, replace the result, or block (the reason goes to the model).',
  PostToolUseFailure: 'After a tool call failed or was denied. Matcher tests `tool_name`. Can add context.',
  Notification: 'The agent needs the user. Matcher tests `notification_type` (`permission_prompt`, `idle_prompt`).',
  UserPromptSubmit: 'The user sent a prompt, before the model sees it. No matcher. Can block, add context, rewrite the prompt.',
  SessionStart: 'A chat session opens. Matcher tests `source` (`startup`, `resume`, `clear`, `compact`). Can add context.',
  SessionEnd: 'The session closes. Matcher tests `reason`.',
  Stop: "The main agent is about to finish its turn. No matcher. Blocking forces it to continue (the reason goes to the model). In `.claude/agents/*.md` it means that agent's `SubagentStop`.",
  SubagentStart: 'A subagent is spawned. Matcher tests `agent_type`. Can add context or deny the spawn.',
  SubagentStop: 'A subagent is about to finish. Matcher tests `agent_type`. Blocking forces it to continue.',
  PreCompact: 'Before the conversation is compacted. Matcher tests `trigger` (`manual`, `auto`).',
  PermissionRequest:
    'The approval popup is about to be shown. Matcher tests `tool_name`. Can allow (optionally with updated input) or deny instead of the user.',
  PostToolBatch:
    'After every tool call of one model response has finished, before the next model call. No matcher. Gets `tool_calls` in order. Can add context.',
  UserPromptExpansion: 'A slash command expands into a prompt. Matcher tests `command_name`. Can block the expansion or add context.',
  StopFailure:
    'The turn ended on a model/API error (Stop does not fire then). Matcher tests `error` (`rate_limit`, `server_error`, `authentication_failed`, …). Output is ignored.',
  PostCompact: 'After the conversation was compacted; gets `compact_summary`. Matcher tests `trigger` (`manual`, `auto`).',
  PermissionDenied:
    'A tool call was denied (by a rule, the mode, a hook or the user). Matcher tests `tool_name`. `hookSpecificOutput.retry: true` tells the model it may try again.',
  Setup: '`hookwise --init` runs it before SessionStart. Matcher tests `trigger` (`init`). Can add context.',
  TaskCreated: 'The model created a task with TaskCreate. No matcher. Exit 2 undoes the creation; stderr goes to the model.',
  TaskCompleted: 'The model marks a task completed with TaskUpdate. No matcher. Exit 2 keeps the task open; stderr goes to the model.',
  Elicitation: 'An MCP server asks the user for input. Matcher tests `mcp_server_name`. Can answer for the user.',
  ElicitationResult: 'The user answered an MCP elicitation. Matcher tests `mcp_server_name`. Can change the answer.',
  ConfigChange:
    'A hooks/settings source changed while the session runs. Matcher tests `source` (`user_settings`, `project_settings`, `local_settings`, `policy_settings`, `skills`). Exit 2 keeps the old configuration (not for policy settings).',
  InstructionsLoaded: 'An instructions file (CLAUDE.md, AGENTS.md) was loaded. Matcher tests `load_reason`. Observation only.',
  CwdChanged: "The Bash tool's working directory changed (`cd` carries over between calls). Gets `old_cwd`, `new_cwd`. No matcher.",
  FileChanged: "A file watched through a SessionStart hook's `watchPaths` changed. Matcher tests the file name (`.envrc|.env`).",
  DirectoryAdded: 'A workspace folder was added. No matcher. Observation only.',
  MessageDisplay: 'Assistant text is shown (once per message). No matcher. Observation only.',
  ExecutionStart: '**Hookwise lifecycle.** One agent run begins. Can add context.',
  ExecutionEnd: '**Hookwise lifecycle.** One agent run ended.',
  BeforeStep: '**Hookwise lifecycle.** Before each step (one model call and its tool calls). Can add context, inject messages, stop.',
  AfterStep: '**Hookwise lifecycle.** After each step.',
  BeforeInference:
    '**Hookwise lifecycle** (Gemini CLI: BeforeModel). Before each model call; gets `llm_request`. Matcher tests `model`. Can rewrite the request (`hookSpecificOutput.llm_request`), answer without the model (`llm_response`), inject context, stop.',
  BeforeToolSelection:
    '**Hookwise lifecycle** (Gemini CLI: BeforeToolSelection). Before each model call; gets `llm_request`. Matcher tests `model`. `hookSpecificOutput.toolConfig.allowedFunctionNames` narrows the tools offered (union over hooks).',
  AfterInference:
    '**Hookwise lifecycle** (Gemini CLI: AfterModel). After each model call; gets `llm_request` and `llm_response`. Matcher tests `model`. Can replace or redact the reply (`llm_response`), drop or rewrite tool calls, or block to send the model back with the reason.',
  AgentFailed: '**Hookwise lifecycle.** An unrecoverable error ended an agent run.',
};

const groupsSchema = z.array(matcherGroupSchema);

/** Every event name a `hooks` object may hold: the fired ones, then Claude Code's that never fire here. */
export const SCHEMA_EVENT_NAMES: readonly string[] = [...HOOK_EVENTS, ...NOT_APPLICABLE_CLAUDE_EVENTS];

/** Hover text of every name in {@link SCHEMA_EVENT_NAMES}. */
export function schemaEventDescription(name: string): string {
  return (
    (EVENT_DESCRIPTIONS as Readonly<Record<string, string>>)[name] ??
    `Claude Code event with no meaning in Hookwise (agent teams, git worktrees, switching the model mid-session): accepted, never fires.`
  );
}

/**
 * The `hooks` object: event name → matcher groups. Every event is an explicit optional key
 * so editors complete event names and flag typos.
 */
export const hooksObjectSchema = z
  .strictObject(
    Object.fromEntries(
      SCHEMA_EVENT_NAMES.map((event) => [event, groupsSchema.meta({ markdownDescription: schemaEventDescription(event) }).optional()]),
    ) as Record<HookEvent, z.ZodOptional<typeof groupsSchema>>,
  )
  .meta({
    markdownDescription:
      'Hooks by event, in Claude Code\'s format: `{ "PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "./check.sh" }] }] }`. Arrays from every source are concatenated, never overridden.',
  });

/** Claude Code permission rules (`permissions` in settings files). */
export const permissionsSchema = z.looseObject({
  allow: z.array(z.string()).meta({ markdownDescription: 'Rules that run without asking, e.g. `Bash(npm test:*)`, `Edit(src/**)`, `Read`.' }).optional(),
  deny: z
    .array(z.string())
    .meta({ markdownDescription: 'Rules that are always refused, e.g. `Read(./.env)`, `Bash(rm -rf:*)`. Deny wins over ask and allow.' })
    .optional(),
  ask: z.array(z.string()).meta({ markdownDescription: 'Rules that always ask, even when an allow rule matches.' }).optional(),
  defaultMode: z
    .enum(['default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk'])
    .meta({ markdownDescription: 'Permission mode a session starts in.' })
    .optional(),
  additionalDirectories: z.array(z.string()).meta({ markdownDescription: 'Directories outside the project the agent may work in.' }).optional(),
});

/** The Claude settings file (`.claude/settings.json` and friends); unrelated keys are allowed. */
export const claudeSettingsFileSchema = z
  .looseObject({
    $schema: z.string().optional(),
    hooks: hooksObjectSchema.optional(),
    disableAllHooks: z.boolean().meta({ markdownDescription: '`true` turns every hook off, in every source (Claude Code and Hookwise).' }).optional(),
    permissions: permissionsSchema.optional(),
    allowedHttpHookUrls: z
      .array(z.string())
      .meta({
        markdownDescription:
          "URL patterns http hooks may call, e.g. `https://*.example.com/*`, matched on the parsed URL part by part: a `*` stands for whole host labels, any port, http or https, or any path characters, never more than its own part. Absent = any URL; `[]` blocks every http hook; a URL with user info (`user@host`) is never called. A list in a lower settings file can only narrow: each file's list must allow the URL (the managed policy's binds every hook, the user's binds user and project hooks, the project's only its own).",
      })
      .optional(),
    httpHookAllowedEnvVars: z
      .array(z.string())
      .meta({
        markdownDescription:
          "Environment variables http hooks' headers may use at most: each hook's `allowedEnvVars` is narrowed to the names every such list allows (a lower settings file can remove names, never add them; the managed policy's list binds every hook).",
      })
      .optional(),
  })
  .meta({
    title: 'Claude Code settings (Hookwise)',
    markdownDescription:
      'Claude Code settings. Hookwise reads `hooks`, `disableAllHooks`, `permissions`, `allowedHttpHookUrls` and `httpHookAllowedEnvVars`; other keys are left to Claude Code.',
  });
