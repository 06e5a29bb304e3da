/** The API VS Code injects into webviews (callable once). */
interface VsCodeWebviewApi<State> {
  postMessage(message: unknown): void;
  getState(): State | undefined;
  setState(state: State): void;
}

declare function acquireVsCodeApi<State = unknown>(): VsCodeWebviewApi<State>;
