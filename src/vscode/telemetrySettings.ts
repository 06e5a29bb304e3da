import * as vscode from 'vscode';
import type { SessionObserver } from '../agent/sessionObserver';
import { startTelemetry } from '../telemetry/startTelemetry';
import type { TelemetrySettings } from '../telemetry/telemetryConfig';
import type { TelemetryExport } from '../telemetry/telemetryExport';

/** The `hookwise.telemetry.*` settings as the core reads them (empty strings = not set). */
function readSettings(): TelemetrySettings {
  const c = vscode.workspace.getConfiguration('hookwise.telemetry');
  const endpoint = c.get<string>('endpoint', '').trim();
  const serviceName = c.get<string>('serviceName', '').trim();
  const headers = c.get<Record<string, unknown>>('headers', {});
  const strings = Object.fromEntries(Object.entries(headers ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'));
  return { enabled: c.get<boolean>('enabled', false), ...(endpoint ? { endpoint } : {}), ...(serviceName ? { serviceName } : {}), headers: strings };
}

/**
 * The OpenTelemetry export in the editor: started from `hookwise.telemetry.*` and the
 * OTEL_* variables of the extension host, restarted when those settings change. Its
 * {@link observer} feeds the SessionManager. Owned by the AgentController, which disposes it
 * after the last session's SessionEnd, so that session's spans are sent.
 */
export class VscodeTelemetry implements vscode.Disposable {
  private current: TelemetryExport | undefined;
  private applied = '';
  private pending: Promise<void> = Promise.resolve();
  private generation = 0;
  private readonly watcher: vscode.Disposable;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly version: string,
  ) {
    this.watcher = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('hookwise.telemetry')) void this.apply();
    });
  }

  /** The export to feed, while one is on. */
  get observer(): SessionObserver | undefined {
    return this.current;
  }

  /** Reads the settings; restarts the export when they changed. Settles once the export the settings ask for is on (or off). */
  apply(): Promise<void> {
    const settings = readSettings();
    const key = JSON.stringify(settings);
    if (key === this.applied) return this.pending;
    this.applied = key;
    const generation = ++this.generation;
    const old = this.current;
    this.current = undefined;
    void old?.dispose();
    this.pending = startTelemetry(settings, process.env, this.version, (message) => this.log.warn(message)).then((next) => {
      if (generation !== this.generation) {
        void next?.dispose();
        return;
      }
      this.current = next;
      if (next) this.log.info(`OpenTelemetry export to ${next.config.url} (service ${next.config.serviceName})`);
    });
    return this.pending;
  }

  /** Ends open spans and sends them, within the export's flush timeout. */
  async dispose(): Promise<void> {
    this.watcher.dispose();
    this.generation++;
    const current = this.current;
    this.current = undefined;
    await current?.dispose();
  }
}
