import * as vscode from 'vscode';

/** Characters of a command's output kept (the end of it: what the user last saw). */
const MAX_OUTPUT_CHARS = 64_000;

/** One recorded command and the end of its output. */
export interface TerminalOutput {
  readonly command?: string;
  readonly output: string;
}

/**
 * Records the last command output of each terminal so "Add Context…" can attach it. VS Code
 * has no API to read what a terminal shows; the stable way is shell integration: a command's
 * output can be read as it runs (`TerminalShellExecution.read()`), so it is recorded from the
 * start of every command. Terminals without shell integration record nothing.
 */
export class TerminalOutputRecorder implements vscode.Disposable {
  private readonly last = new WeakMap<vscode.Terminal, TerminalOutput>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor() {
    this.disposables.push(vscode.window.onDidStartTerminalShellExecution((e) => void this.record(e.terminal, e.execution)));
  }

  /** The last recorded command output of `terminal`, if any. */
  lastOutput(terminal: vscode.Terminal): TerminalOutput | undefined {
    const raw = this.last.get(terminal);
    return raw ? { ...raw, output: stripAnsi(raw.output) } : undefined;
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }

  private async record(terminal: vscode.Terminal, execution: vscode.TerminalShellExecution): Promise<void> {
    let output = '';
    const command = execution.commandLine.value.trim();
    try {
      for await (const chunk of execution.read()) {
        output = (output + chunk).slice(-MAX_OUTPUT_CHARS);
        this.last.set(terminal, { ...(command ? { command } : {}), output });
      }
    } catch {
      // The terminal closed mid-read: keep what was recorded.
    }
    this.last.set(terminal, { ...(command ? { command } : {}), output });
  }
}

/** Removes terminal escape sequences (colours, cursor moves, shell-integration marks). */
export function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b\[[0-?]*[ -/]*[@-~]|\u001b[@-_]/g, '');
}
