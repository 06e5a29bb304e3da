import type { AgentEvent } from '../agent/agentEvents';
import type { HookRunObserver, HookRunRecord } from '../hooks/hookRunTypes';
import type { CliArgs } from './cliArgs';
import { modelHookMarkerText } from '../presentation/modelHookMarkerText';
import { hookRunLine, streamLine, toCliHookRun, type CliHookRun } from './cliOutput';
import type { CliIo } from './runCli';
import { coverAgentEvent, coverHookRun } from './compileCoverage';

/**
 * Where a headless run's agent events and hook runs go, by output format: `stream-json` writes
 * one line each as they happen; `json` keeps the hook runs for the result; every format says
 * self-protection notices (and, but in `stream-json`, skipped memory files) on stderr.
 */
export class CliEventSink {
  // The json result's hook_runs, in the order runs finished. Only the projection is kept, never
  // the record: a record holds the hook's input and output, and a long session would keep
  // every one of them until exit.
  private readonly runs = new Map<string, CliHookRun>();
  private readonly stream: boolean;
  /** Hook runs come from the runner's observers, not the agent's events. */
  readonly observer: HookRunObserver = {
    onHookFinished: (record) => {
      coverHookRun(record);
      this.observeHookRun(record, 'finished');
    },
    onAskResolved: (record) => this.observeHookRun(record, 'askResolved'),
  };

  constructor(
    private readonly args: CliArgs,
    private readonly io: CliIo,
  ) {
    this.stream = args.outputFormat === 'stream-json';
  }

  /** The hook runs kept for the `json` result, in the order they finished. */
  hookRuns(): CliHookRun[] {
    return [...this.runs.values()];
  }

  /** One agent event. */
  readonly emit = (event: AgentEvent): void => {
    const { io } = this;
    coverAgentEvent(event);
    // A self-protection event (a protected file reverted or kept) is logged whatever the format.
    if (event.type === 'systemMessage' && event.source === 'protection') io.stderr(`hookwise: ${event.text}\n`);
    if (event.type === 'text' && this.args.outputFormat === 'text') return;
    // A memory file or import left out is said on stderr too (stream-json has it as a system line), naming the file and the import.
    if (!this.stream && event.type === 'systemMessage' && (event.source === 'memory' || event.source === 'modelHook')) io.stderr(`hookwise: ${event.text}\n`);
    // A model-level hook's mark on the reply, in the chat's words (stream-json has it as a model_hook line).
    if (!this.stream && event.type === 'modelHookMarker') io.stderr(`hookwise: ${modelHookMarkerText(event.marker)}\n`);
    if (!this.stream) return;
    const line = streamLine(event);
    if (line) io.stdout(`${JSON.stringify(line)}\n`);
  };

  private observeHookRun(record: HookRunRecord, phase: 'finished' | 'askResolved'): void {
    if (this.args.outputFormat === 'json') this.runs.set(record.runId, toCliHookRun(record));
    if (this.stream) this.io.stdout(`${JSON.stringify(hookRunLine(record, phase))}\n`);
  }
}
