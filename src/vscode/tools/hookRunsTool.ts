/**
 * `hookwise_hook_runs`: a read-only language model tool other agents in VS Code (Copilot
 * Chat's agent mode, any extension calling `vscode.lm.invokeTool`) use to ask what Hookwise's
 * hooks decided recently. It reads a bounded in-memory list fed by the hook runner's observer
 * port; it changes nothing.
 */
import * as vscode from 'vscode';
import { z } from 'zod';
import type { HookRunObserver, HookRunRecord } from '../../hooks/hookRunTypes';
import { describeSource } from '../../configFiles/hookSource';
import { decisionText, inputSummary, runReason } from '../tree/hookRunLabels';

/** The tool's name in `vscode.lm.tools` (declared in package.json `languageModelTools`). */
export const HOOK_RUNS_TOOL = 'hookwise_hook_runs';

/** Finished runs kept for the tool, newest last. */
const KEEP = 200;

/** The tool's input (package.json declares the same schema for the model). */
export const hookRunsQuerySchema = z.object({
  event: z.string().max(100).optional(),
  decision: z.string().max(100).optional(),
  text: z.string().max(500).optional(),
  limit: z.number().int().min(1).max(100).optional(),
});

/** One run as the tool reports it. */
export interface HookRunSummary {
  readonly time: string;
  readonly event: string;
  readonly matched?: string;
  readonly hook: string;
  readonly source: string;
  readonly decision: string;
  readonly reason?: string;
  readonly input?: string;
  readonly durationMs?: number;
  readonly agent: string;
  readonly sessionId: string;
}

/** Keeps the last {@link KEEP} finished hook runs (an observer the runtime reports to). */
export class RecentHookRuns implements HookRunObserver {
  readonly #runs = new Map<string, HookRunRecord>();

  onHookFinished(record: HookRunRecord): void {
    this.#put(record);
  }

  onAskResolved(record: HookRunRecord): void {
    this.#put(record);
  }

  /** Runs matching `query`, newest first: `event` exactly, `decision` and `text` as case-insensitive substrings. */
  query(query: z.output<typeof hookRunsQuerySchema>): HookRunSummary[] {
    const event = query.event?.trim().toLowerCase();
    const decision = query.decision?.trim().toLowerCase();
    const text = query.text?.trim().toLowerCase();
    const out: HookRunSummary[] = [];
    for (const record of [...this.#runs.values()].reverse()) {
      if (out.length >= (query.limit ?? 20)) break;
      const summary = summarize(record);
      if (event && summary.event.toLowerCase() !== event) continue;
      if (decision && !summary.decision.toLowerCase().includes(decision)) continue;
      if (text && ![summary.hook, summary.matched, summary.reason, summary.input].some((s) => s?.toLowerCase().includes(text))) continue;
      out.push(summary);
    }
    return out;
  }

  #put(record: HookRunRecord): void {
    this.#runs.delete(record.runId);
    this.#runs.set(record.runId, record);
    if (this.#runs.size > KEEP) this.#runs.delete(this.#runs.keys().next().value as string);
  }
}

function summarize(record: HookRunRecord): HookRunSummary {
  const reason = runReason(record);
  const input = inputSummary(record.input);
  return {
    time: new Date(record.startedAt).toISOString(),
    event: record.event,
    ...(record.matchValue !== undefined ? { matched: record.matchValue } : {}),
    hook: record.hookLabel || record.hookId,
    source: describeSource(record.source),
    decision: decisionText(record),
    ...(reason !== undefined ? { reason } : {}),
    ...(input !== undefined ? { input } : {}),
    ...(record.durationMs !== undefined ? { durationMs: record.durationMs } : {}),
    agent: record.agentId,
    sessionId: record.sessionId,
  };
}

/** Registers the tool; the returned disposable unregisters it. */
export function registerHookRunsTool(runs: RecentHookRuns): vscode.Disposable {
  return vscode.lm.registerTool<unknown>(HOOK_RUNS_TOOL, {
    prepareInvocation: () => ({ invocationMessage: 'Reading Hookwise hook runs' }),
    invoke: (options) => {
      const parsed = hookRunsQuerySchema.safeParse(options.input ?? {});
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new Error(`${HOOK_RUNS_TOOL}: invalid input at ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
      }
      const found = runs.query(parsed.data);
      const text = found.length === 0 ? 'No Hookwise hook runs match.' : JSON.stringify(found, null, 1);
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
    },
  });
}
