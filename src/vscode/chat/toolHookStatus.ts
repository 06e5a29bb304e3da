import type { HookRunObserver, HookRunRecord } from '../../hooks/hookRunTypes';

/** What a tool card shows about its hooks: the running hook's `statusMessage`, or nothing (`text` absent). */
export interface ToolHookStatusUpdate {
  readonly agentId: string;
  readonly toolUseId: string;
  readonly text?: string;
}

/**
 * A hook-run observer that follows hooks with a `statusMessage` attached to one tool call
 * (PreToolUse, PermissionRequest, PostToolUse… — their input carries `tool_use_id`) and
 * reports what that call's card should say while they run: the latest started one's message,
 * and an update without text once none is left. Hooks without a statusMessage cost one check.
 * Pure (no vscode), so it is unit-tested with the real runner.
 */
export class ToolHookStatus implements HookRunObserver {
  /** tool_use_id → run id → message, in start order (the latest started one is shown). */
  private readonly running = new Map<string, Map<string, string>>();

  constructor(private readonly onUpdate: (update: ToolHookStatusUpdate) => void) {}

  onHookStarted(record: HookRunRecord): void {
    const message = record.statusMessage?.trim();
    if (!message) return;
    const toolUseId = toolUseIdOf(record);
    if (toolUseId === undefined) return;
    let runs = this.running.get(toolUseId);
    if (!runs) this.running.set(toolUseId, (runs = new Map()));
    runs.set(record.runId, message);
    this.onUpdate({ agentId: record.agentId, toolUseId, text: message });
  }

  onHookFinished(record: HookRunRecord): void {
    if (record.statusMessage === undefined) return;
    const toolUseId = toolUseIdOf(record);
    const runs = toolUseId === undefined ? undefined : this.running.get(toolUseId);
    if (!runs || toolUseId === undefined || !runs.delete(record.runId)) return;
    const latest = [...runs.values()].at(-1);
    if (latest === undefined) this.running.delete(toolUseId);
    this.onUpdate({ agentId: record.agentId, toolUseId, ...(latest !== undefined ? { text: latest } : {}) });
  }
}

function toolUseIdOf(record: HookRunRecord): string | undefined {
  const id = record.input['tool_use_id'];
  return typeof id === 'string' && id !== '' ? id : undefined;
}
