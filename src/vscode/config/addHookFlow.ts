import * as vscode from 'vscode';
import { AddHookError } from '../../hooks/config/addHookEdit';
import { EVENT_DESCRIPTIONS, type HookHandlerConfig } from '../../hooks/config/hookConfigSchema';
import { checkMatcher } from '../../hooks/config/matcherCheck';
import { HOOK_EVENTS, MATCHER_FIELD, TOOL_EVENTS, type HookEvent } from '../../hooks/hookEvent';
import { addHookToFile, addHookToUserSettingsValue, resolveTargetFile, type AddHookTargetKind, type AddHookWriteResult, type NewHook } from './addHookWriter';
import { thrownMessage } from '../../shared/describeThrown';

/**
 * "Hookwise: Add Hook…": event → matcher (skipped for events without one) → type →
 * command/prompt → where to save. Each step is answered from `answers` when given (tests,
 * other commands) and asked through the injectable `AddHookUi` otherwise.
 */

/** Pre-filled answers; a missing one is asked. `matcher: ''` = no matcher (all). */
export interface AddHookAnswers {
  readonly event?: HookEvent;
  readonly matcher?: string;
  readonly type?: HookHandlerConfig['type'];
  readonly body?: string;
  readonly target?: AddHookTargetKind;
  /** Folder for `.claude` targets in a multi-root workspace (its name or path); default the first. */
  readonly folder?: string;
  /** Open the file at the new entry; default true. */
  readonly reveal?: boolean;
}

/** One quick-pick item carrying its value. */
export interface Choice<T> extends vscode.QuickPickItem {
  readonly value: T;
}

/** The dialogs of the flow; each returns undefined when the user cancels. */
export interface AddHookUi {
  pick<T>(items: readonly Choice<T>[], options: { readonly title: string; readonly placeHolder: string }): Thenable<T | undefined>;
  input(options: vscode.InputBoxOptions): Thenable<string | undefined>;
  pickFolder(): Thenable<vscode.WorkspaceFolder | undefined>;
}

/** The real dialogs. */
export const vscodeAddHookUi: AddHookUi = {
  pick: async (items, options) =>
    (await vscode.window.showQuickPick(items, { ...options, matchOnDescription: true, matchOnDetail: true, ignoreFocusOut: true }))?.value,
  input: (options) => vscode.window.showInputBox({ ignoreFocusOut: true, ...options }),
  pickFolder: () => vscode.window.showWorkspaceFolderPick({ placeHolder: 'Folder whose .claude settings get the hook' }),
};

const TITLE = 'Hookwise: Add Hook';
const CUSTOM = Symbol('custom');
const TOOL_MATCHERS = ['Bash', 'Read', 'Write', 'Edit', 'Glob', 'Grep', 'TaskCreate', 'TaskUpdate', 'Agent', 'Write|Edit'];
const VALUE_MATCHERS: Partial<Record<HookEvent, readonly string[]>> = {
  SessionStart: ['startup', 'resume', 'clear', 'compact'],
  SessionEnd: ['clear', 'logout', 'prompt_input_exit', 'other'],
  Notification: ['permission_prompt', 'idle_prompt'],
  PreCompact: ['manual', 'auto'],
  PostCompact: ['manual', 'auto'],
  StopFailure: ['rate_limit', 'server_error', 'authentication_failed', 'billing_error', 'overloaded', 'invalid_request', 'model_not_found', 'unknown'],
  ConfigChange: ['user_settings', 'project_settings', 'local_settings', 'policy_settings', 'skills'],
  Setup: ['init', 'maintenance'],
  FileChanged: ['.envrc', '.env', 'package.json'],
  InstructionsLoaded: ['session_start', 'nested_traversal', 'path_glob_match', 'include', 'compact'],
};
/** What a matcher is tested against, for the prompts (FileChanged tests the file's name, not its path). */
const matcherSubject = (event: HookEvent): string | undefined => (event === 'FileChanged' ? 'file name' : MATCHER_FIELD[event]);

/** Hover text without markdown, for a quick-pick detail line. */
function plain(markdown: string): string {
  return markdown.replace(/\*\*|`/g, '');
}

/** Quick-pick validation of a custom matcher with Claude's rules (regex compile, likely mistakes). */
export function validateMatcherInput(value: string): string | vscode.InputBoxValidationMessage | undefined {
  const { error, warning } = checkMatcher(value);
  if (error) return error;
  return warning ? { message: warning, severity: vscode.InputBoxValidationSeverity.Warning } : undefined;
}

async function askMatcher(event: HookEvent, ui: AddHookUi): Promise<string | undefined | typeof CUSTOM | null> {
  const field = matcherSubject(event);
  const names = TOOL_EVENTS.has(event) ? TOOL_MATCHERS : (VALUE_MATCHERS[event] ?? []);
  const items: Choice<string | typeof CUSTOM>[] = [
    ...names.map((name) => ({ label: name, value: name, description: name.includes('|') ? 'either' : undefined }) as Choice<string>),
    { label: '*', description: `every ${field}`, value: TOOL_EVENTS.has(event) ? '*' : '' },
    { label: 'Custom…', description: 'names separated by | or a regex', value: CUSTOM },
  ];
  const picked = await ui.pick(items, { title: `${TITLE} (${event})`, placeHolder: `Which ${field} values trigger the hook?` });
  return picked === undefined ? null : picked;
}

type AddHookDeps = {
  readonly log: vscode.LogOutputChannel;
  readonly globalStorageUri: vscode.Uri;
  readonly ui?: AddHookUi;
  readonly onAdded?: (hook: NewHook, target: AddHookTargetKind, file: string | undefined) => void | Promise<void>;
};

/** Signals a cancelled step (the user pressed Escape). */
const CANCELLED = Symbol('cancelled');

/** Runs the flow; resolves undefined when cancelled. Errors are shown to the user and logged. */
export async function runAddHookFlow(deps: AddHookDeps, answers: AddHookAnswers = {}): Promise<AddHookWriteResult | undefined> {
  const ui = deps.ui ?? vscodeAddHookUi;
  const event =
    answers.event ??
    (await ui.pick(
      HOOK_EVENTS.map((e) => ({ label: e, detail: plain(EVENT_DESCRIPTIONS[e]), value: e })),
      { title: TITLE, placeHolder: 'When should the hook run?' },
    ));
  if (!event) return undefined;
  const matcher = MATCHER_FIELD[event] !== undefined ? await askMatcherValue(event, ui, answers.matcher) : undefined;
  if (matcher === CANCELLED) return undefined;
  const type = answers.type ?? (await askHandlerType(event, ui));
  if (!type) return undefined;
  const body = answers.body ?? (await askHandlerBody(event, type, ui));
  if (body === undefined || body.trim() === '') return undefined;
  const handler: HookHandlerConfig =
    type === 'command'
      ? { type, command: body }
      : type === 'http'
        ? { type, url: body.trim() }
        : type === 'mcp_tool'
          ? mcpToolHandler(body)
          : { type, prompt: body };
  const target = answers.target ?? (await askTarget(event, type, ui));
  if (!target) return undefined;
  const folder = await targetFolder(target, answers.folder, ui);
  if (folder === CANCELLED) return undefined;
  return writeHook(deps, { event, matcher, handler }, target, folder, answers.reveal ?? true);
}

/** The matcher: a pick (or the answer given), then a typed one for "Custom…"; undefined = every value. */
async function askMatcherValue(event: HookEvent, ui: AddHookUi, given: string | undefined): Promise<string | undefined | typeof CANCELLED> {
  let answer: string | undefined | typeof CUSTOM | null = given ?? (await askMatcher(event, ui));
  if (answer === null) return CANCELLED;
  if (answer === CUSTOM) {
    answer = await ui.input({
      title: `${TITLE} (${event})`,
      prompt: `Matcher for ${matcherSubject(event)}: names separated by | (Write|Edit) or a regex (mcp__.*)`,
      validateInput: validateMatcherInput,
    });
    if (answer === undefined) return CANCELLED;
  }
  return answer === '' ? undefined : answer;
}

function askHandlerType(event: HookEvent, ui: AddHookUi): Thenable<HookHandlerConfig['type'] | undefined> {
  return ui.pick<HookHandlerConfig['type']>(
    [
      { label: 'command', description: 'Run a shell command; it gets the event JSON on stdin', value: 'command' },
      { label: 'prompt', description: 'Ask a model to decide ({"ok": …})', value: 'prompt' },
      { label: 'agent', description: 'Run a verifier subagent with read-only tools', value: 'agent' },
      { label: 'http', description: 'POST the event JSON to a URL; the response decides like stdout', value: 'http' },
    ],
    { title: `${TITLE} (${event})`, placeHolder: 'What should the hook do?' },
  );
}

function askHandlerBody(event: HookEvent, type: HookHandlerConfig['type'], ui: AddHookUi): Thenable<string | undefined> {
  return ui.input({
    title: `${TITLE} (${event}, ${type})`,
    prompt:
      type === 'command'
        ? 'Shell command ($CLAUDE_PROJECT_DIR is the project root; exit code 2 blocks)'
        : type === 'http'
          ? 'URL the event JSON is POSTed to'
          : type === 'mcp_tool'
            ? 'MCP server and tool, as server/tool (arguments can be added in the file)'
            : 'Prompt ($ARGUMENTS is replaced by the event JSON)',
    placeHolder:
      type === 'command'
        ? '"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh'
        : type === 'http'
          ? 'http://localhost:8080/hooks'
          : type === 'mcp_tool'
            ? 'semgrep/scan_file'
            : 'Allow only if $ARGUMENTS does not touch files outside src/',
    validateInput: (v) =>
      v.trim() === ''
        ? 'Enter a command, prompt or URL'
        : type === 'http' && !/^https?:\/\//i.test(v.trim())
          ? 'The URL must start with http:// or https://'
          : type === 'mcp_tool' && !/^[^/\s]+\/[^/\s]+$/.test(v.trim())
            ? 'Write it as server/tool'
            : undefined,
  });
}

function askTarget(event: HookEvent, type: HookHandlerConfig['type'], ui: AddHookUi): Thenable<AddHookTargetKind | undefined> {
  return ui.pick<AddHookTargetKind>(
    [
      { label: 'Workspace Settings', description: '.vscode/settings.json › hookwise.hooks', value: 'workspaceSettings' },
      { label: 'User Settings', description: 'hookwise.hooks, every workspace', value: 'userSettings' },
      { label: '.claude/settings.json', description: 'shared with the team, Claude Code compatible', value: 'claudeProject' },
      { label: '.claude/settings.local.json', description: 'just you, not committed', value: 'claudeLocal' },
    ],
    { title: `${TITLE} (${event}, ${type})`, placeHolder: 'Where should the hook be saved?' },
  );
}

/** The workspace folder to save in (asked when a `.claude` file is the target of a multi-root workspace); an error when the target needs one and there is none. */
async function targetFolder(
  target: AddHookTargetKind,
  given: string | undefined,
  ui: AddHookUi,
): Promise<vscode.WorkspaceFolder | undefined | typeof CANCELLED> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  let folder: vscode.WorkspaceFolder | undefined = folders[0];
  if (given !== undefined) folder = folders.find((f) => f.name === given || f.uri.fsPath === given);
  else if (folders.length > 1 && (target === 'claudeProject' || target === 'claudeLocal')) folder = await ui.pickFolder();
  if ((target === 'claudeProject' || target === 'claudeLocal' || target === 'workspaceSettings') && !folder) {
    void vscode.window.showErrorMessage('Hookwise: open a folder to save hooks in the workspace.');
    return CANCELLED;
  }
  return folder;
}

async function writeHook(
  deps: AddHookDeps,
  hook: NewHook,
  target: AddHookTargetKind,
  folder: vscode.WorkspaceFolder | undefined,
  reveal: boolean,
): Promise<AddHookWriteResult | undefined> {
  try {
    const file = await resolveTargetFile(target, folder, deps.globalStorageUri);
    const result = file
      ? await addHookToFile(file.file, file.hooksPath, hook, reveal)
      : target === 'userSettings'
        ? await addHookToUserSettingsValue(hook, reveal)
        : undefined;
    if (!result) throw new Error('no settings file for this workspace');
    const { event, matcher, handler } = hook;
    deps.log.info(`added ${event}${matcher ? ` [${matcher}]` : ''} ${handler.type} hook at ${result.uri?.fsPath ?? 'user settings'} › ${result.jsonPath}`);
    await deps.onAdded?.(hook, target, result.uri?.fsPath);
    return result;
  } catch (error) {
    const message = thrownMessage(error);
    deps.log.error(`Add Hook failed: ${message}`);
    void vscode.window.showErrorMessage(`Hookwise could not add the hook: ${AddHookError.is(error) ? message : 'see the Hookwise log'}.`);
    return undefined;
  }
}

/** `server/tool` → an mcp_tool handler with the hook input's tool_input as arguments by default. */
function mcpToolHandler(body: string): HookHandlerConfig {
  const [server = '', tool = ''] = body.trim().split('/');
  return { type: 'mcp_tool', server, tool };
}
