import { parseArgs } from 'node:util';
import { z } from 'zod';
import { permissionModeSchema } from '../permissions/permissionMode';
import type { PermissionMode } from '../permissions/permissionMode';
import { splitRuleList } from '../permissions/ruleList';
import type { PermissionPromptMode } from './ttyPermissionProvider';
import { thrownMessage } from '../shared/describeThrown';

/** Parsed `hookwise` command line. */
export interface CliArgs {
  /** The prompt's words; '' when the prompt comes on stdin only (main.ts adds what is piped). */
  readonly prompt: string;
  readonly cwd: string;
  readonly model?: string;
  readonly playgroundScript?: string;
  readonly baseUrl?: string;
  readonly apiKey?: string;
  readonly outputFormat: 'text' | 'json' | 'stream-json';
  readonly permissionMode: PermissionMode;
  /** Set by `--permission-prompt`; absent means `auto` (ask at the terminal when there is one). */
  readonly permissionPrompt?: Exclude<PermissionPromptMode, 'auto'>;
  readonly allowedTools: readonly string[];
  readonly settingsFile?: string;
  readonly maxSteps?: number;
  readonly resume?: string;
  /** `--init` / `--maintenance`: Setup hooks run (with this trigger) before SessionStart. */
  readonly setup?: 'init' | 'maintenance';
  /** `--mcp-config`: MCP server configs, each a file or a JSON string (`{"mcpServers": …}`). */
  readonly mcpConfigs: readonly string[];
  /** `--strict-mcp-config`: only the `--mcp-config` servers, none from `.mcp.json` or `~/.claude.json`. */
  readonly strictMcpConfig: boolean;
  /** `--plugin-dir DIR` (repeatable): local Claude Code plugin roots loaded for this run. */
  readonly pluginDirs: readonly string[];
  /** `--strict-config`: exit 2 when a hook config file has an error, instead of running its last good version. */
  readonly strictConfig: boolean;
  /** `--allow-memory-import FILE` (repeatable): files outside the project that project memory may import in this run. */
  readonly memoryImports?: readonly string[];
  /** `--rg-path FILE` or $HOOKWISE_RG_PATH: the ripgrep Grep and Glob run on (before `rg` on PATH). */
  readonly rgPath?: string;
  /** `--disable-hook ID` (repeatable): hooks and built-in providers switched off for this run, as the user's `hookwise.hooks.disabled`. */
  readonly disabledHooks?: readonly string[];
  /** `--context-window N` or $HOOKWISE_CONTEXT_WINDOW: the model's context window in tokens (absent: the model's known one, else 200,000). */
  readonly contextWindow?: number;
}

/** What the command line asks for: a run, help, the version, or a usage error (exit 2). */
export type CliCommand =
  | { readonly kind: 'run'; readonly args: CliArgs }
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'usageError'; readonly message: string };

/** The help text. */
export const USAGE = `Usage: hookwise -p "prompt" [options]

Runs the Hookwise agent headless, with the hooks of ~/.claude/settings.json and the
project's .claude/ files (a headless run counts as trusted), and prints the result.

Options:
  -p, --print PROMPT          the prompt to run. Input piped on stdin is added after it
                              on a new line, or is the prompt when there is none (as in
                              Claude Code); the run waits 3 s for it to start
  --cwd DIR                   working directory / project root (default: current dir)
  --model NAME                model name, or playground:FILE to replay a scripted session
  --base-url URL              OpenAI-compatible endpoint (default: $OPENAI_BASE_URL)
  --output-format FORMAT      text | json | stream-json (default: text)
  --permission-mode MODE      default | acceptEdits | bypassPermissions | plan
  --allowed-tools LIST        comma-separated allow rules, e.g. "Bash(npm test:*),Edit"
  --permission-prompt WHERE   tty | none: who answers an ask. By default the terminal when
                              stderr is one (y allow once, s allow for the session, n deny),
                              else no one (denied). none: never ask. tty: always ask there
                              (via /dev/tty when redirected; exit 2 without a terminal)
  --settings FILE             an extra settings file (highest precedence)
  --disable-hook ID           switch a hook off for this run, as hookwise.hooks.disabled
                              does: a hook's id (hookwise hooks list) or a built-in
                              provider (builtin.compaction); repeatable. The built-in
                              limits always run (use --max-steps)
  --max-steps N               stop after N steps
  --context-window N          the model's context window in tokens (default:
                              $HOOKWISE_CONTEXT_WINDOW, else the model's known window,
                              else 200,000). The conversation is compacted (PreCompact
                              trigger auto) once the prompt the model reports passes
                              N − 33,000 (167,000 of 200,000)
  --resume ID                 continue the session with this id
  --init                      run Setup hooks (trigger init) before SessionStart
  --maintenance               run Setup hooks (trigger maintenance) before SessionStart
  --mcp-config FILE|JSON...   MCP servers from these files or JSON strings
                              ({"mcpServers": {...}}), besides .mcp.json and ~/.claude.json
  --strict-mcp-config         use only the --mcp-config servers
  --plugin-dir DIR            load the Claude Code plugin at DIR (hooks, commands,
                              agents, .mcp.json) for this run; repeatable
  --strict-config             exit 2 when a hook config file has an error. By default
                              the last good copy of that file (kept per project under
                              $HOOKWISE_HOME/projects/) runs instead, with a warning
  --allow-memory-import FILE  let project memory (CLAUDE.md…) import FILE although it is
                              outside the project (headless, no one is asked); repeatable
  --rg-path FILE              the ripgrep Grep and Glob run on (default: $HOOKWISE_RG_PATH,
                              then rg on PATH; without one, a slower JavaScript search)
  --version                   print the version
  -h, --help                  show this help

  hookwise hooks list|explain|test …  inspect and test the hooks (hookwise hooks --help)

Environment: OPENAI_API_KEY, OPENAI_BASE_URL, HOOKWISE_MODEL, HOOKWISE_HOME, HOOKWISE_RG_PATH,
HOOKWISE_CONTEXT_WINDOW.
Exit codes: 0 completed, 1 failed or stopped (Ctrl+C), 2 bad usage (or, with
--strict-config, a broken hook config file), 143 SIGTERM,
129 SIGHUP or the parent process died.`;

const outputFormatSchema = z.enum(['text', 'json', 'stream-json']);
const permissionPromptSchema = z.enum(['auto', 'tty', 'none']);

/**
 * Parses argv (without node and script). Environment fallbacks: OPENAI_BASE_URL,
 * OPENAI_API_KEY, HOOKWISE_MODEL. Never throws: a bad command line is a usageError.
 */
export function parseCliArgs(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): CliCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: spreadMcpConfigs(argv),
      strict: true,
      allowPositionals: true,
      options: {
        // A switch, as Claude Code's: the prompt is the words (`-p --model m "fix it"` works too).
        print: { type: 'boolean', short: 'p' },
        cwd: { type: 'string' },
        model: { type: 'string' },
        'base-url': { type: 'string' },
        'output-format': { type: 'string' },
        'permission-mode': { type: 'string' },
        'permission-prompt': { type: 'string' },
        'allowed-tools': { type: 'string', multiple: true },
        allowedTools: { type: 'string', multiple: true },
        settings: { type: 'string' },
        'disable-hook': { type: 'string', multiple: true },
        'max-steps': { type: 'string' },
        'context-window': { type: 'string' },
        resume: { type: 'string', short: 'r' },
        init: { type: 'boolean' },
        maintenance: { type: 'boolean' },
        'mcp-config': { type: 'string', multiple: true },
        'strict-mcp-config': { type: 'boolean' },
        'strict-config': { type: 'boolean' },
        'plugin-dir': { type: 'string', multiple: true },
        'allow-memory-import': { type: 'string', multiple: true },
        'rg-path': { type: 'string' },
        version: { type: 'boolean', short: 'v' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return { kind: 'usageError', message: thrownMessage(error) };
  }
  const v = parsed.values;
  if (v.help) return { kind: 'help' };
  if (v.version) return { kind: 'version' };
  // May be empty: the prompt can come on stdin too (main.ts puts the two together).
  const prompt = parsed.positionals.join(' ');

  const format = outputFormatSchema.safeParse(v['output-format'] ?? 'text');
  if (!format.success) return { kind: 'usageError', message: `--output-format must be text, json or stream-json (got "${v['output-format']}")` };
  const mode = permissionModeSchema.safeParse(v['permission-mode'] ?? 'default');
  if (!mode.success)
    return { kind: 'usageError', message: `--permission-mode must be one of ${permissionModeSchema.options.join(', ')} (got "${v['permission-mode']}")` };
  const prompter = permissionPromptSchema.safeParse(v['permission-prompt'] ?? 'auto');
  if (!prompter.success) return { kind: 'usageError', message: `--permission-prompt must be tty, none or auto (got "${v['permission-prompt']}")` };
  let maxSteps: number | undefined;
  if (v['max-steps'] !== undefined) {
    maxSteps = Number(v['max-steps']);
    if (!Number.isInteger(maxSteps) || maxSteps < 1) return { kind: 'usageError', message: `--max-steps must be a positive integer (got "${v['max-steps']}")` };
  }
  const windowArg = v['context-window'] ?? env.HOOKWISE_CONTEXT_WINDOW;
  const contextWindow = windowArg === undefined || windowArg === '' ? undefined : Number(windowArg);
  if (contextWindow !== undefined && (!Number.isInteger(contextWindow) || contextWindow < 1000))
    return { kind: 'usageError', message: `--context-window must be a whole number of tokens, at least 1000 (got "${windowArg}")` };
  const modelArg = v.model ?? env.HOOKWISE_MODEL;
  const playground = modelArg?.startsWith('playground:') ? modelArg.slice('playground:'.length) : undefined;
  if (playground === '') return { kind: 'usageError', message: '--model playground:FILE needs a file' };
  const allowedTools = [...(v['allowed-tools'] ?? []), ...(v.allowedTools ?? [])].flatMap(splitRuleList);
  const baseUrl = v['base-url'] ?? env.OPENAI_BASE_URL;
  if (v.init && v.maintenance) return { kind: 'usageError', message: '--init and --maintenance cannot be used together' };

  const args: CliArgs = {
    prompt,
    cwd: v.cwd ?? cwd,
    outputFormat: format.data,
    permissionMode: mode.data,
    allowedTools,
    mcpConfigs: v['mcp-config'] ?? [],
    strictMcpConfig: v['strict-mcp-config'] === true,
    strictConfig: v['strict-config'] === true,
    pluginDirs: v['plugin-dir'] ?? [],
    ...(playground !== undefined ? { playgroundScript: playground } : modelArg !== undefined ? { model: modelArg } : {}),
    ...(baseUrl ? { baseUrl } : {}),
    ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : {}),
    ...(prompter.data !== 'auto' ? { permissionPrompt: prompter.data } : {}),
    ...(v.settings ? { settingsFile: v.settings } : {}),
    ...(maxSteps !== undefined ? { maxSteps } : {}),
    ...(contextWindow !== undefined ? { contextWindow } : {}),
    ...(v.resume ? { resume: v.resume } : {}),
    ...(v['disable-hook'] ? { disabledHooks: v['disable-hook'] } : {}),
    ...(v['allow-memory-import'] ? { memoryImports: v['allow-memory-import'] } : {}),
    ...((v['rg-path'] ?? env.HOOKWISE_RG_PATH) ? { rgPath: (v['rg-path'] ?? env.HOOKWISE_RG_PATH) as string } : {}),
    ...(v.init ? { setup: 'init' as const } : v.maintenance ? { setup: 'maintenance' as const } : {}),
  };
  return { kind: 'run', args };
}

/**
 * `--mcp-config a.json b.json` takes several values, as in Claude Code: the values after it
 * that name a `.json` file or are a JSON object become one `--mcp-config` each.
 */
function spreadMcpConfigs(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    out.push(arg);
    if (arg !== '--mcp-config' || i + 1 >= argv.length) continue;
    out.push(argv[++i] ?? '');
    while (i + 1 < argv.length && /^\s*\{|\.json$/i.test(argv[i + 1] ?? '')) out.push('--mcp-config', argv[++i] ?? '');
  }
  return out;
}
