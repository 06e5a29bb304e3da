import * as vscode from 'vscode';
import type { TrustPolicy } from '../../hooks/config/hookApproval';
import { canSwitchOff, hookSwitchId, withSwitch } from '../../hooks/config/hookSwitches';
import { configWarnings } from '../../hooks/config/configNotices';
import { explainHooks, handlerText, type ExplainSession } from '../../hooks/explain/explainHooks';
import { explainSessionOf } from '../../hooks/explain/explainSession';
import { renderExplanation } from '../../hooks/explain/explainReport';
import { HOOK_EVENTS, MATCHER_FIELD, type HookEvent } from '../../hooks/hookEvent';
import type { HookRunRecord } from '../../hooks/hookRunTypes';
import { describeSource, isProjectSource, type HookSource } from '../../configFiles/hookSource';
import type { HookConfigChange } from '../config/hookConfigService';
import { thrownMessage } from '../../shared/describeThrown';
import type { HookRunsNode } from '../tree/hookRunNodes';
import { isExtensionApiSource } from '../extensionApiHooks';
import { ALWAYS_ON_BUILTINS, isBuiltinProviderLabel } from '../../hooks/config/builtinSwitches';
import { parseJsonObject } from '../../shared/jsonObject';
import { MarkdownTabs } from './markdownTabs';

/** Command ids of the hook workbench (declared in package.json). */
export const WorkbenchCommands = {
  whyTheseHooks: 'hookwise.hooks.whyTheseHooks',
  explain: 'hookwise.hooks.explain',
  disableHook: 'hookwise.hooks.disableHook',
  enableHook: 'hookwise.hooks.enableHook',
  switchHooks: 'hookwise.hooks.switchHooks',
} as const;

/** Scheme of the read-only "Why these hooks?" pages (shown as rendered Markdown previews). */
export const EXPLAIN_SCHEME = 'hookwise-explain';
const SETTING = 'hookwise.hooks.disabled';
/** Longest tool_input accepted from the Explain Hooks… input box. */
const MAX_INPUT_CHARS = 100_000;

export interface HookWorkbenchOptions {
  /** The configuration as last applied (undefined before the first load). */
  readonly current: () => HookConfigChange | undefined;
  /** The Hook Runs selection, when a command comes from the palette. */
  readonly selection: () => readonly HookRunsNode[];
  /** Where a session runs when the occurrence does not say (the first workspace folder). */
  readonly projectDir: string;
  readonly log?: vscode.LogOutputChannel;
  /** The skills a session has loaded (the runner's state), so skill-scoped hooks are explained right. */
  readonly skillsOf?: (sessionId: string, at: number) => ReadonlySet<string>;
}

/**
 * Registers "Why these hooks?" (Hook Runs context menu), **Hookwise: Explain Hooks…**, and
 * Disable / Enable Hook (`hookwise.hooks.disabled`: a project hook's switch in workspace settings, a
 * user hook's in user settings; the `.claude` files are never edited). The returned disposable owns everything.
 * Each explanation opens rendered, in a tab of its own; the two explain commands resolve with its URI.
 */
export function registerHookWorkbench(o: HookWorkbenchOptions): vscode.Disposable {
  const pages = new MarkdownTabs(EXPLAIN_SCHEME);
  const show = async (title: string, event: HookEvent, input: Readonly<Record<string, unknown>>, session?: ExplainSession): Promise<vscode.Uri | undefined> => {
    const change = o.current();
    if (!change) {
      void vscode.window.showInformationMessage('Hookwise: the hook configuration is still loading; try again in a moment.');
      return undefined;
    }
    const cwd = typeof input.cwd === 'string' ? input.cwd : o.projectDir;
    const agentType = typeof input.agent_type === 'string' && input.agent_type !== 'main' ? input.agent_type : undefined;
    const rows = explainHooks(change.config, {
      event,
      input,
      cwd,
      trust: trustOf(change),
      ...(agentType !== undefined ? { agentType } : {}),
      ...(session !== undefined ? { session } : {}),
    });
    return pages.open(`Why these hooks - ${event}`, renderExplanation(title, input, rows, session !== undefined, configWarnings(change.config)));
  };
  const recordOf = (node: unknown): HookRunRecord | undefined => {
    const n = (node ?? o.selection()[0]) as HookRunsNode | undefined;
    return n?.kind === 'run' ? n.record : n?.kind === 'occurrence' ? n.first : undefined;
  };
  // The occurrence's session as Hook Runs holds it: what ran then, and what had run before.
  const sessionOf = (node: unknown): ExplainSession | undefined => {
    const n = (node ?? o.selection()[0]) as HookRunsNode | undefined;
    const occurrence = n?.kind === 'run' ? n.occurrence : n?.kind === 'occurrence' ? n : undefined;
    // A node built by hand (another extension, a test) may lack the tree links: explain without the session then.
    const session = (occurrence as Partial<typeof occurrence> | undefined)?.agent?.session;
    if (!occurrence || !session) return undefined;
    const records = [...session.runs.values()].map((r) => r.record);
    return explainSessionOf(occurrence.occurrenceId, records, o.skillsOf?.(session.sessionId, occurrence.first.startedAt));
  };
  return vscode.Disposable.from(
    pages,
    vscode.commands.registerCommand(WorkbenchCommands.whyTheseHooks, async (node?: unknown) => {
      const record = recordOf(node);
      if (!record) return undefined;
      return show(`Why these hooks? ${record.event}${record.matchValue ? ` (${record.matchValue})` : ''}`, record.event, record.input, sessionOf(node));
    }),
    vscode.commands.registerCommand(WorkbenchCommands.explain, async (node?: unknown) => {
      const asked = await askQuery(recordOf(node));
      return asked ? show(`Explain Hooks: ${asked.event}${asked.tool ? ` (${asked.tool})` : ''}`, asked.event, asked.input) : undefined;
    }),
    vscode.commands.registerCommand(WorkbenchCommands.disableHook, (node?: unknown) => setSwitch(recordOf(node)?.source, true)),
    vscode.commands.registerCommand(WorkbenchCommands.enableHook, (node?: unknown) => setSwitch(recordOf(node)?.source, false)),
    vscode.commands.registerCommand(WorkbenchCommands.switchHooks, () => switchHooks(o.current())),
  );
}

/** The trust the service applied: project hooks it held back are held here too, for the same reason. */
function trustOf(change: HookConfigChange): TrustPolicy {
  const unapproved = new Set(change.applied.held.filter((h) => h.why === 'unapproved').map((h) => h.hook.hash));
  return { trusted: vscode.workspace.isTrusted, isApproved: (hook) => !unapproved.has(hook.hash) };
}

/**
 * Switches one hook off or back on in `hookwise.hooks.disabled`. A project hook's switch is
 * written to the workspace settings when a folder is open (it belongs to this project); a user
 * hook's to the user settings, since the loader ignores a workspace switch for a user hook
 * (workspaceNarrowing.ts), and the message says so. Enabling removes the id from both.
 */
export async function setSwitch(source: HookSource | undefined, off: boolean): Promise<boolean> {
  if (source === undefined) return false;
  // Another extension's API hooks switch off by its id (all of that extension's), a built-in provider by its name; other code hooks have no switch.
  if (source.kind === 'code' && ALWAYS_ON_BUILTINS.has(source.label)) {
    if (off)
      void vscode.window.showInformationMessage(
        `"${source.label}" cannot be switched off: they end a runaway agent. Raise hookwise.agent.maxSteps instead, or add a hook of your own for a stricter limit.`,
      );
    return false;
  }
  if (source.kind === 'code' && !isExtensionApiSource(source) && !isBuiltinProviderLabel(source.label)) {
    void vscode.window.showInformationMessage(`"${source.label}" is registered by code; it has no switch.`);
    return false;
  }
  if (off && !canSwitchOff({ source })) {
    void vscode.window.showWarningMessage(
      'This hook comes from the managed policy (managed-settings.json): your organisation requires it, so it cannot be switched off here.',
    );
    return false;
  }
  // A run from an older version (restored history) names its hook by position only: a position can name another hook now.
  if (source.kind !== 'code' && source.switchId === undefined) {
    void vscode.window.showWarningMessage(
      `Hookwise: this run is from an earlier configuration and does not say which hook it was; use "Switch Hooks On/Off…" to switch ${describeSource(source)} off or on.`,
    );
    return false;
  }
  const id = hookSwitchId({ source });
  const config = vscode.workspace.getConfiguration();
  const project = isProjectSource(source);
  const { Global, Workspace } = vscode.ConfigurationTarget;
  const folderOpen = (vscode.workspace.workspaceFolders?.length ?? 0) > 0;
  const inspected = config.inspect<unknown[]>(SETTING);
  const inUser = Array.isArray(inspected?.globalValue) && inspected.globalValue.includes(id);
  const inWorkspace = folderOpen && Array.isArray(inspected?.workspaceValue) && inspected.workspaceValue.includes(id);
  // What is off now: the user's switch reaches every hook, the workspace's only the project's.
  if (off && (inUser || (project && inWorkspace))) return true;
  if (!off && !inUser && !inWorkspace) return true;
  const targets = off ? [project && folderOpen ? Workspace : Global] : [...(inUser ? [Global] : []), ...(inWorkspace ? [Workspace] : [])];
  try {
    for (const target of targets)
      await config.update(SETTING, withSwitch(target === Workspace ? inspected?.workspaceValue : inspected?.globalValue, id, off), target);
  } catch (error) {
    // E.g. the settings file is open with unsaved changes: say so, the user saves and tries again.
    void vscode.window.showErrorMessage(`Hookwise: could not ${off ? 'disable' : 'enable'} ${id}: ${thrownMessage(error)}`);
    return false;
  }
  const where = targets.map((t) => (t === Global ? 'user settings' : 'workspace settings')).join(' and ');
  vscode.window.setStatusBarMessage(`Hookwise: ${id} ${off ? 'disabled' : 'enabled'} (hookwise.hooks.disabled in ${where})`, 4000);
  if (off && !project && folderOpen)
    void vscode.window.showInformationMessage(
      `Hookwise: ${id} is your own hook, so it is switched off in your user settings (every workspace): a workspace setting cannot switch off your hooks.`,
    );
  return true;
}

/** "Switch Hooks On/Off…": every configured hook, ticked when on; managed policy hooks are not listed (they cannot be switched off). */
async function switchHooks(change: HookConfigChange | undefined): Promise<void> {
  if (!change) return;
  // What the loader applied: a workspace switch naming a user hook is ignored there, so it is not shown as off here.
  const disabled: ReadonlySet<string> = change.config.disabledHookIds ?? new Set();
  const items = change.config.hooks
    .filter((h) => canSwitchOff(h))
    .map((h) => {
      const id = hookSwitchId(h);
      return { label: `${h.event}${h.matcher ? ` [${h.matcher}]` : ''} ${handlerText(h)}`, description: id, id, picked: !disabled.has(id) };
    });
  const unique = [...new Map(items.map((i) => [i.id, i])).values()];
  const picked = await vscode.window.showQuickPick(unique, {
    canPickMany: true,
    title: 'Hooks that run (untick to switch off; managed policy hooks always run and are not listed)',
  });
  if (!picked) return;
  const on = new Set(picked.map((p) => p.id));
  for (const item of unique) if (on.has(item.id) === disabled.has(item.id)) await setSwitch(sourceOf(change, item.id), !on.has(item.id));
}

function sourceOf(change: HookConfigChange, id: string): HookSource | undefined {
  return change.config.hooks.find((h) => hookSwitchId(h) === id)?.source;
}

/** Asks event, tool and tool_input (prefilled from the selected run, else a sample); undefined when cancelled or invalid. */
async function askQuery(
  from: HookRunRecord | undefined,
): Promise<{ readonly event: HookEvent; readonly tool?: string; readonly input: Record<string, unknown> } | undefined> {
  const items = HOOK_EVENTS.map((e) => ({ label: e, ...(from?.event === e ? { description: 'selected run' } : {}) }));
  if (from) items.sort((a, b) => Number(b.label === from.event) - Number(a.label === from.event));
  const picked = await vscode.window.showQuickPick(items, { title: 'Explain Hooks: event', placeHolder: 'Which event?' });
  if (!picked) return undefined;
  const event = picked.label;
  const base: Record<string, unknown> = from?.event === event ? { ...from.input } : { hook_event_name: event };
  if (MATCHER_FIELD[event] !== 'tool_name') return { event, input: base };
  const prevTool = typeof base.tool_name === 'string' ? base.tool_name : 'Bash';
  const tool = await vscode.window.showInputBox({ title: 'Explain Hooks: tool', prompt: 'Tool name (tool_name)', value: prevTool });
  if (tool === undefined) return undefined;
  const sample = tool === prevTool && base.tool_input !== undefined ? base.tool_input : tool === 'Bash' ? { command: 'npm test' } : {};
  const text = await vscode.window.showInputBox({
    title: 'Explain Hooks: tool_input',
    prompt: 'The tool input as JSON',
    value: JSON.stringify(sample),
    validateInput: (v) => (parseJsonObject(v, MAX_INPUT_CHARS) === undefined ? 'A JSON object, e.g. {"command": "ls"}' : undefined),
  });
  if (text === undefined) return undefined;
  const toolInput = parseJsonObject(text, MAX_INPUT_CHARS);
  if (toolInput === undefined) return undefined;
  return { event, tool, input: { ...base, tool_name: tool, tool_input: toolInput } };
}
