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
    this.render();
  }

  /** The text shown, for tests. */
  get text(): string {
    return this.item.text;
  }

  dispose(): void {
    this.item.dispose();
  }

  private render(): void {
    const activity: AgentActivity = this.waiting ? { kind: 'approval' } : this.activity;
    if (!this.waiting && this.hooksRunning.size > 0) {
      const runs = [...this.hooksRunning.values()];
      const events = [...new Set(runs.map((r) => r.event))].join(', ');
      // The handler's own statusMessage says it best; the latest started one that has one wins.
      const message = [...runs].reverse().find((r) => r.statusMessage !== undefined)?.statusMessage;
      const more = runs.length > 1 ? ` (+${runs.length - 1})` : '';
      this.item.text =
        message !== undefined
          ? `$(loading~spin) Hookwise: ${message.length > 80 ? `${message.slice(0, 79)}…` : message}${more}`
          : `$(loading~spin) Hookwise: running ${events} ${runs.length === 1 ? 'hook' : `hooks (${runs.length})`}`;
      this.item.tooltip = `Hookwise is waiting for ${runs.map((r) => `${r.event} hook ${r.label}`).join('; ')}. Click to open the chat.`;
      this.item.backgroundColor = undefined;
      this.item.accessibilityInformation = { label: this.item.tooltip };
      return;
    }
    switch (activity.kind) {
      case 'idle':
        this.item.text = '$(hubot) Hookwise';
        this.item.tooltip = 'Hookwise: idle. Click to open the chat.';
        this.item.backgroundColor = undefined;
        break;
      case 'thinking':
        this.item.text = '$(loading~spin) Hookwise: thinking';
        this.item.tooltip = 'Hookwise: the model is working. Click to open the chat.';
        this.item.backgroundColor = undefined;
        break;
      case 'tool':
        this.item.text = `$(tools) Hookwise: running ${activity.toolName}`;
        this.item.tooltip = `Hookwise: running the ${activity.toolName} tool. Click to open the chat.`;
        this.item.backgroundColor = undefined;
        break;
      case 'approval':
        this.item.text = '$(bell-dot) Hookwise: waiting for approval';
        this.item.tooltip = 'Hookwise is waiting for you to allow or deny a tool call.';
        this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
        break;
    }
    this.item.accessibilityInformation = { label: this.item.tooltip as string };
  }
}
