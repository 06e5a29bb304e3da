import type { AgentEvent } from '../agent/agentEvents';
import type { SessionObserver } from '../agent/sessionObserver';
import type { HookRunRecord } from '../hooks/hookRunTypes';
import { describeThrown } from '../shared/describeThrown';
import type { createOtelTracer, OtelTracer } from './otelSdk';
import type { TelemetryConfig } from './telemetryConfig';
import type { TraceBuilder } from './traceBuilder';

/** The longest an exit or a dispose waits for spans to be sent. */
export const FLUSH_TIMEOUT_MS = 2000;

/** Resolves after `ms` or when `work` settles, whichever is first; never rejects. The timer does not hold the process. */
function bounded(work: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref?.();
    work.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      () => {
        clearTimeout(timer);
        resolve();
      },
    );
  });
}

/**
 * OpenTelemetry export of sessions, agents, tool calls and hook runs (a {@link SessionObserver}).
 * The SDK is loaded only by {@link TelemetryExport.start}, from its own bundle. A failure to send
 * is one warning (once per exporter), never an agent failure; a session's spans are flushed when
 * it ends, and {@link dispose} waits at most {@link FLUSH_TIMEOUT_MS}.
 */
export class TelemetryExport implements SessionObserver {
  private warned = false;
  private disposed = false;

  private constructor(
    private readonly tracer: OtelTracer,
    private readonly builder: TraceBuilder,
    private readonly warn: (message: string) => void,
    readonly config: TelemetryConfig,
  ) {}

  /** Loads the SDK and starts exporting to `config`; a string says why it could not (the SDK file missing, say). */
  static async start(config: TelemetryConfig, version: string, warn: (message: string) => void): Promise<TelemetryExport | string> {
    let create: typeof createOtelTracer;
    let Builder: typeof TraceBuilder;
    try {
      // esbuild turns this into a require of dist/telemetry.js (see esbuild.mjs).
      ({ createOtelTracer: create, TraceBuilder: Builder } = await import('./otelSdk'));
    } catch (error) {
      return `OpenTelemetry export is off: cannot load the exporter (${describeThrown(error)})`;
    }
    let report: (message: string) => void = () => undefined;
    const tracer = create(config, version, (message) => report(message));
    const self = new TelemetryExport(tracer, new Builder(tracer.sink), warn, config);
    report = (message) => self.failed(message);
    return self;
  }

  sessionStarted(sessionId: string): void {
    this.guard(() => this.builder.sessionStarted(sessionId));
  }

  agentEvent(sessionId: string, event: AgentEvent): void {
    this.guard(() => this.builder.agentEvent(sessionId, event));
  }

  hookFinished(record: HookRunRecord): void {
    this.guard(() => this.builder.hookFinished(record));
  }

  hookAskResolved(record: HookRunRecord): void {
    this.guard(() => this.builder.hookAskResolved(record));
  }

  sessionEnded(sessionId: string, reason: string): void {
    this.guard(() => this.builder.sessionEnded(sessionId, reason));
    // A finished session is worth sending now, not at the next batch tick.
    void this.flush();
  }

  /** Sends what is queued, waiting at most `timeoutMs`. */
  flush(timeoutMs = FLUSH_TIMEOUT_MS): Promise<void> {
    return this.disposed ? Promise.resolve() : bounded(this.tracer.flush(), timeoutMs);
  }

  /** Ends open spans, sends them and stops the exporter, within `timeoutMs` in all. */
  async dispose(timeoutMs = FLUSH_TIMEOUT_MS): Promise<void> {
    if (this.disposed) return;
    this.guard(() => this.builder.endAll());
    this.disposed = true;
    await bounded(
      this.tracer.flush().finally(() => this.tracer.shutdown()),
      timeoutMs,
    );
  }

  private guard(work: () => void): void {
    if (this.disposed) return;
    try {
      work();
    } catch (error) {
      this.failed(describeThrown(error));
    }
  }

  private failed(message: string): void {
    if (this.warned) return;
    this.warned = true;
    this.warn(`OpenTelemetry export to ${this.config.url} failed: ${message}`);
  }
}
