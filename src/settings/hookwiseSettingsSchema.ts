import { z } from 'zod';
import { hooksObjectSchema } from '../hooks/config/hookConfigSchema';
import { mcpServerEntrySchema } from '../mcp/mcpServerConfig';
import { HOOK_SOURCE_KEYS } from '../hooks/config/hookSourceKeys';
import { HOOK_FORMAT_IDS } from '../hooks/formats/hookFormat';

/**
 * The VS Code settings Hookwise reads, with their defaults and scopes. package.json
 * `contributes.configuration` is generated from this table (scripts/generateSchemas.mjs) and a
 * unit test fails when the two drift.
 */

/** VS Code configuration scopes used here (see the `contributes.configuration` docs). */
export type SettingScope = 'application' | 'machine' | 'machine-overridable' | 'window' | 'resource';

/** One contributed setting. */
export interface HookwiseSettingSpec {
  readonly schema: z.ZodType;
  readonly scope: SettingScope;
}

/**
 * Every `hookwise.*` setting. Scopes: hooks are per folder (`resource`); anything that could
 * widen what runs without asking (`permissions.*`, the playground script) is `machine`, so a
 * cloned repository's `.vscode/settings.json` cannot set it.
 */
export const HOOKWISE_SETTINGS = {
  'hookwise.hooks': {
    scope: 'resource',
    schema: hooksObjectSchema.default({}).meta({
      markdownDescription:
        "Hooks in Claude Code's `hooks` format (same shape as in `.claude/settings.json`). User, workspace and folder values are all used, concatenated in that order with the `.claude` files (user settings → `~/.claude/settings.json` → `.claude/settings.json` → `.claude/settings.local.json` → workspace → folder → agent files).",
    }),
  },
  'hookwise.hooks.enabled': {
    scope: 'resource',
    schema: z.boolean().default(true).meta({
      markdownDescription:
        'Run configured hooks at all. Like `"disableAllHooks": true` in a `.claude` settings file when off. Hooks registered by code (built-ins) still run. A workspace or folder value only narrows: `false` there turns off the project\'s own hooks (your user-level hooks keep running), and `true` there cannot undo `false` in your user settings; an ignored value is reported as a warning.',
    }),
  },
  'hookwise.hooks.disabled': {
    scope: 'resource',
    schema: z.array(z.string().max(1000)).max(1000).default([]).meta({
      markdownDescription:
        "Hooks switched off, each by its identity, not its position: `file › event › matcher › type:handler #hash`, e.g. `.claude/settings.json › PreToolUse › Bash › command:./ask-before-risky.sh #1a2b3c4d` (the hash covers the source scope and file, event, matcher, the whole handler and its agent or skill scope; `*` stands for no matcher). Adding, removing or moving other hooks never moves a switch; changing the hook itself (its command, matcher, event) leaves the switch naming no hook, which is reported as a warning. An old position id (`.claude/settings.json › hooks.PreToolUse[0].hooks[0]`) that still names a hook is rewritten to that hook's identity id on load (logged). Hooks registered by another extension switch off by its id (`extension publisher.name`). The agent's built-in providers switch off by name in your user settings: `built-in compaction` (no compaction, `/compact` included), `built-in memory` (no nested CLAUDE.md or `paths:` rules loaded as the agent works on files), `built-in task reminders` (no reminder to use the task tools); docs/hooks.md, Built-in providers. `built-in limits` never switches off. Set by **Disable Hook** / **Enable Hook**, **Switch Hooks On/Off…** and the CodeLens; never edits the `.claude` files. Managed policy hooks cannot be switched off. Your user settings can switch off any other hook; a workspace or folder value only the project's own hooks (an id naming one of your hooks there is ignored with a warning, so a cloned repository cannot silence your hooks), and **Disable Hook** writes a switch for one of your hooks to your user settings. In an untrusted workspace the workspace value is ignored. The CLI has no VS Code settings: it runs every hook.",
    }),
  },
  'hookwise.hooks.sources': {
    scope: 'window',
    schema: z
      .array(z.enum(HOOK_SOURCE_KEYS))
      .default([...HOOK_SOURCE_KEYS])
      .meta({
        markdownDescription:
          "Which configuration sources to read: `user` (user settings `hookwise.hooks`), `claudeUser` (`~/.claude/settings.json`), `project` (`.claude/settings.json`), `local` (`.claude/settings.local.json`), `workspace` (workspace and folder `hookwise.hooks`), `agents` (`hooks:` in `.claude/agents/*.md`), `plugins` (Claude Code plugins' `hooks/hooks.json`). Your user settings decide for every source; a workspace value only narrows: leaving a key out there skips only the project's sources of that kind, while `user`, `claudeUser` and your own agents and plugins still load, and a source your user settings leave out cannot be added back (ignored values are reported as warnings).",
      }),
  },
  'hookwise.hooks.maxInputBytes': {
    // Not from a workspace: a repository must not shrink what a user's redacting hook reads.
    scope: 'machine',
    schema: z
      .number()
      .int()
      .min(1024)
      .default(4 * 1024 * 1024)
      .meta({
        markdownDescription:
          "Most bytes of message text a model-level hook (BeforeInference, BeforeToolSelection, AfterInference) gets in `llm_request`. Past it the oldest messages' content is replaced by a marker and `llm_request.truncated` says how many; a hook that sends a marker back unchanged keeps that message's original text. The CLI reads `$HOOKWISE_HOOKS_MAX_INPUT_BYTES`.",
      }),
  },
  'hookwise.hooks.formats': {
    scope: 'machine-overridable',
    schema: z
      .array(z.enum(HOOK_FORMAT_IDS))
      .default([...HOOK_FORMAT_IDS])
      .meta({
        markdownDescription:
          "Other agents' hook files Hookwise reads and runs with that agent's semantics: `copilot` (`.github/hooks/*.json`, `.github/copilot/settings*.json`, `~/.copilot/hooks/*.json`), `cursor` (`.cursor/hooks.json`, `~/.cursor/hooks.json`), `windsurf` (`.windsurf/hooks.json`, `~/.codeium/windsurf/hooks.json`), `codex` (`.codex/hooks.json`, `[hooks]` in `.codex/config.toml`, the same under `~/.codex`), `gemini` (`hooks` in `.gemini/settings.json`, `~/.gemini/settings.json`), `cline` (`.clinerules/hooks/<Event>`, `~/Documents/Cline/Hooks/<Event>`). Leave a format out to turn it off. Only your user settings or a VS Code policy decide (a workspace value is ignored). Project files of every format need Workspace Trust and your approval like `.claude` project hooks; what cannot carry over is a warning in Problems. See docs/formats/.",
      }),
  },
  'hookwise.plugins.directories': {
    scope: 'machine',
    schema: z.array(z.string()).default([]).meta({
      markdownDescription:
        'Local Claude Code plugin roots to load (each holds `.claude-plugin/plugin.json`, `hooks/hooks.json`, `commands/`, `agents/`, `.mcp.json`), besides the plugins enabled by `enabledPlugins` in the `.claude` settings files. A root inside the workspace is a project plugin: its hooks need trust and approval.',
    }),
  },
  'hookwise.model.provider': {
    scope: 'window',
    schema: z
      .enum(['openai-compatible', 'vscode-lm', 'playground'])
      .default('openai-compatible')
      .meta({
        markdownDescription:
          "Where the agent's model comes from: any OpenAI-compatible endpoint (`hookwise.model.baseUrl`), the VS Code Language Model API, or the offline playground that replays a scripted session. A workspace value that differs from yours is ignored in an untrusted workspace and asked about once in a trusted one.",
        markdownEnumDescriptions: [
          'OpenAI, Azure, Ollama, LM Studio, vLLM, OpenRouter… at `hookwise.model.baseUrl`.',
          'A model provided to VS Code by another extension (Language Model API).',
          "Replays `hookwise.model.playgroundScript` (else the workspace's `.hookwise/playground.json` in a trusted workspace, else a built-in demo); no network, clearly labelled.",
        ],
      }),
  },
  'hookwise.model.baseUrl': {
    scope: 'machine-overridable',
    schema: z.string().default('https://api.openai.com/v1').meta({
      markdownDescription:
        "Base URL of the OpenAI-compatible endpoint, e.g. `http://localhost:11434/v1` for Ollama. The API key is kept in VS Code secret storage, never in settings. A workspace's value pointing to another server (scheme, host and port) than yours is used only after you approve that server for your key; a changed key asks again.",
    }),
  },
  'hookwise.model.name': {
    scope: 'window',
    schema: z
      .string()
      .default('')
      .meta({ markdownDescription: "Model name sent to the endpoint (e.g. `gpt-4.1`, `qwen2.5-coder`). Empty = the provider's first available model." }),
  },
  'hookwise.model.playgroundScript': {
    scope: 'machine',
    schema: z.string().default('').meta({ markdownDescription: 'Path of the scripted session the `playground` provider replays. Empty = the built-in demo.' }),
  },
  'hookwise.permissions.askFallback': {
    scope: 'machine',
    schema: z
      .enum(['deny', 'allow'])
      .default('deny')
      .meta({
        markdownDescription: 'What an `ask` becomes when nobody can answer (headless runs, a dismissed popup).',
        markdownEnumDescriptions: ['Refuse the call (safe default).', 'Run the call.'],
      }),
  },
  'hookwise.permissions.mode': {
    scope: 'machine',
    schema: z
      .enum(['default', 'acceptEdits', 'bypassPermissions', 'plan'])
      .default('default')
      .meta({
        markdownDescription:
          "Permission mode new sessions start in (Claude Code's `permission_mode`). A `.claude` `permissions.defaultMode` does not override it.",
        markdownEnumDescriptions: [
          'Ask for anything not allowed by a rule or hook.',
          'Run file edits without asking; still ask for commands.',
          'Run everything without asking. Deny rules and hooks still apply.',
          'Read-only: the agent plans, edits and commands are refused.',
        ],
      }),
  },
  'hookwise.agent.maxSteps': {
    scope: 'window',
    schema: z
      .number()
      .int()
      .min(1)
      .default(50)
      .meta({ markdownDescription: 'Most steps (one model call and its tool calls) in one agent run before it stops and says why.' }),
  },
  'hookwise.agent.maxSubagentDepth': {
    scope: 'window',
    schema: z.number().int().min(0).default(2).meta({ markdownDescription: 'How deep subagents may spawn subagents. `0` disables the `Agent` tool.' }),
  },
  'hookwise.hookRuns.maxRunsPerSession': {
    scope: 'window',
    schema: z
      .number()
      .int()
      .min(1)
      .default(5000)
      .meta({ markdownDescription: 'Hook runs kept per session in the **Hook Runs** view; the oldest are dropped first.' }),
  },
  'hookwise.hookRuns.keepHistory': {
    // Machine scope: a workspace must not decide whether a user's hook inputs are written to disk.
    scope: 'machine',
    schema: z.boolean().default(true).meta({
      markdownDescription:
        "Keep finished hook runs (their input and output) in the workspace's storage, so **Hook Runs** shows them again after a reload (the last 10,000, at most 7 days). `false`: nothing is written and nothing is restored.",
    }),
  },
  'hookwise.compaction.contextBudgetTokens': {
    scope: 'window',
    schema: z.number().int().min(1000).default(100000).meta({
      markdownDescription: 'Estimated context size (tokens) at which the conversation is compacted automatically (`PreCompact` with trigger `auto`).',
    }),
  },
  'hookwise.model.contextWindow': {
    scope: 'window',
    schema: z.number().int().min(0).default(0).meta({
      markdownDescription:
        "The model's context window in tokens. `0` = the model's known window (Claude, GPT-4.1, GPT-4o, GPT-5, o-series by name), else 200,000. Once the prompt the model reports passes the window less 33,000 tokens (room for the reply and a margin: 167,000 of 200,000, Claude Code's threshold), the conversation is compacted before the next model call (`PreCompact` with trigger `auto`); it is also compacted, and the call sent again, when the model refuses a prompt as too long. Set it for a local model with a smaller window.",
    }),
  },
  'hookwise.notifications.idleSeconds': {
    scope: 'window',
    schema: z
      .number()
      .min(0)
      .default(60)
      .meta({ markdownDescription: 'Seconds the agent waits for input before a `Notification` hook fires with `idle_prompt`. `0` = never.' }),
  },
  'hookwise.vscodeTools.enabled': {
    // Offering a tool widens nothing that runs without asking: every VS Code tool asks by default.
    scope: 'window',
    schema: z.array(z.string().trim().min(1).max(300)).max(200).default([]).meta({
      markdownDescription:
        "Tools from VS Code's tool registry (`vscode.lm.tools`: other extensions' tools, VS Code's own, MCP servers VS Code runs) the agent may call, as `vscode__<toolName>`. Patterns: `publisher.extension/*` (all tools that extension declares), `publisher.extension/toolName`, `toolName`, `*`. Every call goes through PreToolUse, the approval (asks by default) and PostToolUse. Read when a session starts. See docs/chat.md, 'VS Code tools'.",
    }),
  },
  'hookwise.mcp.servers': {
    scope: 'window',
    schema: z.record(z.string(), mcpServerEntrySchema).default({}).meta({
      markdownDescription:
        'MCP servers in Claude Code\'s `mcpServers` format (`{"name": {"command": …, "args": […], "env": {…}}}` or `{"type": "http", "url": …, "headers": {…}}`; `${VAR}` and `${VAR:-default}` are expanded), used besides `~/.claude.json` and the project\'s `.mcp.json`. User values run without approval; a workspace value is treated like `.mcp.json` (Workspace Trust and approval of the exact definition).',
    }),
  },
  'hookwise.mcp.trustReadOnlyHint': {
    scope: 'machine',
    schema: z.boolean().default(false).meta({
      markdownDescription: "Let MCP tools that declare `readOnlyHint: true` run without asking, like Read. Off by default: the hint is the server's own claim.",
    }),
  },
  // Machine scope, all four: a cloned repository's settings must not send the user's sessions to an endpoint it picked.
  'hookwise.telemetry.enabled': {
    scope: 'machine',
    schema: z.boolean().default(false).meta({
      markdownDescription:
        'Export a trace span per session, agent, tool call and hook run over OTLP/HTTP (OpenTelemetry). Also on without this when `OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is set (unless `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`). Tool input and output and prompts are never sent.',
    }),
  },
  'hookwise.telemetry.endpoint': {
    scope: 'machine',
    schema: z.string().max(2048).default('').meta({
      markdownDescription:
        'OTLP/HTTP endpoint, e.g. `http://localhost:4318` (`/v1/traces` is added) or the full traces URL. Empty: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` / `OTEL_EXPORTER_OTLP_ENDPOINT`, else `http://localhost:4318`. Wins over the variables.',
    }),
  },
  'hookwise.telemetry.headers': {
    scope: 'machine',
    schema: z
      .record(z.string().max(256), z.string().max(8192))
      .default({})
      .meta({ markdownDescription: 'HTTP headers sent with each export (e.g. an API key). Merged over `OTEL_EXPORTER_OTLP_HEADERS`; these win.' }),
  },
  'hookwise.telemetry.serviceName': {
    scope: 'machine',
    schema: z.string().max(256).default('').meta({ markdownDescription: "The traces' `service.name`. Empty: `OTEL_SERVICE_NAME`, else `hookwise`." }),
  },
} as const satisfies Record<string, HookwiseSettingSpec>;

/** A contributed setting key. */
export type HookwiseSettingKey = keyof typeof HOOKWISE_SETTINGS;

/** The settings as read, with defaults applied. */
export type HookwiseSettings = { -readonly [K in HookwiseSettingKey]: z.output<(typeof HOOKWISE_SETTINGS)[K]['schema']> };

/**
 * Reads every setting through `get` (e.g. `key => workspace.getConfiguration().get(key)`),
 * applying defaults; a value of the wrong type falls back to the default and is reported
 * in `problems` (the caller logs them). `hookwise.hooks` is returned unvalidated-by-entry
 * here: the loader validates it handler by handler.
 */
export function readHookwiseSettings(get: (key: HookwiseSettingKey) => unknown): { settings: HookwiseSettings; problems: string[] } {
  const settings: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, spec] of Object.entries(HOOKWISE_SETTINGS) as [HookwiseSettingKey, HookwiseSettingSpec][]) {
    const raw = get(key);
    if (key === 'hookwise.hooks') {
      settings[key] = raw ?? {};
      continue;
    }
    const parsed = spec.schema.safeParse(raw);
    if (parsed.success) {
      settings[key] = parsed.data;
    } else {
      settings[key] = spec.schema.parse(undefined);
      problems.push(`${key}: ${parsed.error.issues[0]?.message ?? 'invalid value'}; using the default`);
    }
  }
  return { settings: settings as HookwiseSettings, problems };
}
