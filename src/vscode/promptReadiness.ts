/**
 * What a prompt waits for: the first hook configuration, so no prompt ever runs without its
 * hooks, and the first MCP configuration, so its servers' tools are there from the start.
 */
export class PromptReadiness {
  /** Settles once both were loaded. */
  readonly ready: Promise<void>;
  private markConfig: () => void = () => undefined;
  private markMcp: () => void = () => undefined;

  constructor() {
    this.ready = Promise.all([new Promise<void>((resolve) => (this.markConfig = resolve)), new Promise<void>((resolve) => (this.markMcp = resolve))]).then(
      () => undefined,
    );
  }

  /** A hook configuration was applied (again: no effect). */
  configLoaded(): void {
    this.markConfig();
  }

  /** The MCP configuration was read (again: no effect). */
  mcpLoaded(): void {
    this.markMcp();
  }
}
