import * as vscode from 'vscode';
import type { AgentEvent } from '../agent/agentEvents';
import type { HookRunObserver, HookRunRecord } from '../hooks/hookRunTypes';

/** What the agent is doing, as the status bar shows it. */
export type AgentActivity =
  { readonly kind: 'idle' } | { readonly kind: 'thinking' } | { readonly kind: 'tool'; readonly toolName: string } | { readonly kind: 'approval' };

/**
 * The status bar item "Hookwise: …" with the agent's state: idle, thinking, running a tool,
 * running hooks, waiting for approval. Clicking it opens the chat. State comes from the agent
 * events (`observeAgentEvent`), the hook runs (as a HookRunObserver: a slow hook is what the agent
 * waits for, so it shows over "thinking") and the permission queue (`setWaitingForApproval`),
 * which wins while a popup is open.
 */
export class AgentStatusBar implements vscode.Disposable, HookRunObserver {
  private readonly item: vscode.StatusBarItem;
  private activity: AgentActivity = { kind: 'idle' };
  private waiting = false;
  private readonly toolNames = new Map<string, string>();
  private readonly running = new Set<string>();
  /** At most one refresh of the item per this many ms (see render). */
  private static readonly REFRESH_MS = 250;
  private view: StatusView = { text: '', tooltip: '', warning: false };
  private shownAt = -Infinity;
  private timer: NodeJS.Timeout | undefined;
  /** Hook runs in flight: run id → event, hook label and the handler's statusMessage. */
  private readonly hooksRunning = new Map<string, { readonly event: string; readonly label: string; readonly statusMessage?: string }>();

  constructor(openChatCommand = 'hookwise.openChat') {
    this.item = vscode.window.createStatusBarItem('hookwise.status', vscode.StatusBarAlignment.Left, 50);
    this.item.name = 'Hookwise';
    this.item.command = openChatCommand;
    this.render();
    this.item.show();
  }

  /** Derives the state from the agent's event stream (main agent and subagents). */
  observeAgentEvent(event: AgentEvent): void {
    switch (event.type) {
      case 'runStarted':
        if (event.agent.parentAgentId === null) {
          this.toolNames.clear();
          this.running.clear();
        }
        this.set({ kind: 'thinking' });
        return;
      case 'text':
        if (this.running.size === 0) this.set({ kind: 'thinking' });
        return;
      case 'toolCall':
        this.toolNames.set(event.toolUseId, event.toolName);
        return;
      case 'toolStatus':
        if (event.status === 'running') {
          this.running.add(event.toolUseId);
          this.set({ kind: 'tool', toolName: this.toolNames.get(event.toolUseId) ?? 'a tool' });
        } else if (event.status === 'done' || event.status === 'failed' || event.status === 'denied' || event.status === 'cancelled') {
          this.running.delete(event.toolUseId);
          this.toolNames.delete(event.toolUseId);
          const other = this.running.values().next();
          this.set(other.done ? { kind: 'thinking' } : { kind: 'tool', toolName: this.toolNames.get(other.value) ?? 'a tool' });
        }
        return;
      case 'runEnded':
        if (event.agent.parentAgentId === null) {
          this.running.clear();
          this.toolNames.clear();
          this.set({ kind: 'idle' });
        }
        return;
      default:
        return;
    }
  }

  /** Follows hook runs (a HookRunner observer): while one runs, the status says which. */
  onHookStarted(record: HookRunRecord): void {
    this.hooksRunning.set(record.runId, {
      event: record.event,
      label: record.hookLabel,
      ...(record.statusMessage !== undefined && record.statusMessage.trim() !== '' ? { statusMessage: record.statusMessage.trim() } : {}),
    });
    this.render();
  }

  onHookFinished(record: HookRunRecord): void {
    if (this.hooksRunning.delete(record.runId)) this.render();
  }

  /** Sets the state directly (e.g. idle after Stop). */
  set(activity: AgentActivity): void {
    this.activity = activity;
    this.render();
  }

  /** True while an approval popup is open or queued; overrides the agent's state. */
  setWaitingForApproval(waiting: boolean): void {
    this.waiting = waiting;
    // A question for the person is shown at once, never held back by the refresh limit.
    this.render(waiting);
  }

  /** What the bar says: shown now, or at its next refresh (at most REFRESH_MS away). */
  get text(): string {
    return this.view.text;
  }

  /** What the item itself shows now (tests of the refresh limit). */
  get shownText(): string {
    return this.item.text;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.item.dispose();
  }

  /**
   * Works out what the bar should say and shows it, at most once per REFRESH_MS: every change
   * of a status bar item is a message to the workbench and a redraw of the bar, and five hooks
   * starting and ending within a few milliseconds, call after call, would redraw it ten times
   * a call for states nobody can read. The first change after a quiet spell shows at once; the
   * ones after it within the interval are shown together at its end.
   */
  private render(now = false): void {
    this.view = this.describe();
    if (this.timer !== undefined && !now) return;
    const wait = this.shownAt + AgentStatusBar.REFRESH_MS - performance.now();
    if (now || wait <= 0) this.show();
    else this.timer = setTimeout(() => this.show(), wait);
  }

  private show(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.shownAt = performance.now();
    const { text, tooltip, warning } = this.view;
    if (this.item.text !== text) this.item.text = text;
    if (this.item.tooltip !== tooltip) {
      this.item.tooltip = tooltip;
      this.item.accessibilityInformation = { label: tooltip };
    }
    if (warning !== (this.item.backgroundColor !== undefined)) {
      this.item.backgroundColor = warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    }
  }

  private describe(): StatusView {
    const activity: AgentActivity = this.waiting ? { kind: 'approval' } : this.activity;
    if (!this.waiting && this.hooksRunning.size > 0) {
      const runs = [...this.hooksRunning.values()];
      const events = [...new Set(runs.map((r) => r.event))].join(', ');
      // The handler's own statusMessage says it best; the latest started one that has one wins.
      const message = [...runs].reverse().find((r) => r.statusMessage !== undefined)?.statusMessage;
      const more = runs.length > 1 ? ` (+${runs.length - 1})` : '';
      return {
        text:
          message !== undefined
            ? `$(loading~spin) Hookwise: ${message.length > 80 ? `${message.slice(0, 79)}…` : message}${more}`
            : `$(loading~spin) Hookwise: running ${events} ${runs.length === 1 ? 'hook' : `hooks (${runs.length})`}`,
        tooltip: `Hookwise is waiting for ${runs.map((r) => `${r.event} hook ${r.label}`).join('; ')}. Click to open the chat.`,
        warning: false,
      };
    }
    switch (activity.kind) {
      case 'idle':
        return { text: '$(hubot) Hookwise', tooltip: 'Hookwise: idle. Click to open the chat.', warning: false };
      case 'thinking':
        return { text: '$(loading~spin) Hookwise: thinking', tooltip: 'Hookwise: the model is working. Click to open the chat.', warning: false };
      case 'tool':
        return {
          text: `$(tools) Hookwise: running ${activity.toolName}`,
          tooltip: `Hookwise: running the ${activity.toolName} tool. Click to open the chat.`,
          warning: false,
        };
      case 'approval':
        return { text: '$(bell-dot) Hookwise: waiting for approval', tooltip: 'Hookwise is waiting for you to allow or deny a tool call.', warning: true };
    }
  }
}

/** What the bar says. */
interface StatusView {
  readonly text: string;
  readonly tooltip: string;
  /** The warning background (a question waits for the person). */
  readonly warning: boolean;
}
