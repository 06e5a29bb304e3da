import type { ModelToolSpec } from '../model/modelClient';
import type { AnyAgentTool } from './tools/tool';

/**
 * The tools of one agent run: its own, plus those that may change between steps (the MCP
 * servers' `tools/list_changed`), read again before every model call.
 */
export class RunTools {
  private tools: ReadonlyMap<string, AnyAgentTool>;
  private specs: readonly ModelToolSpec[];
  private extra: readonly AnyAgentTool[] | undefined;
  /** The tools of this call when a model-level hook narrowed them; reset by {@link refresh}. */
  private narrowed: ReadonlyMap<string, AnyAgentTool> | undefined;

  constructor(
    private readonly base: readonly AnyAgentTool[],
    private readonly more?: () => readonly AnyAgentTool[],
  ) {
    this.tools = new Map(base.map((t) => [t.name, t] as const));
    this.specs = base.map(specOf);
  }

  /** The tools by name, as of the last {@link refresh}. */
  get byName(): ReadonlyMap<string, AnyAgentTool> {
    return this.narrowed ?? this.tools;
  }

  /**
   * Only `names` can run until the next {@link refresh}: a call to a tool a hook took off this
   * model call is answered as an unknown tool, so a filter holds even against a model that
   * names a tool it was not offered.
   */
  narrow(names: ReadonlySet<string> | undefined): void {
    this.narrowed = names === undefined ? undefined : new Map([...this.tools].filter(([name]) => names.has(name)));
  }

  /** What the model is told it may call, as of the last {@link refresh}. */
  get modelSpecs(): readonly ModelToolSpec[] {
    return this.specs;
  }

  /** Reads the changing tools again; the same array as last time means unchanged. */
  refresh(): void {
    this.narrowed = undefined;
    const now = this.more?.();
    if (now === undefined || now === this.extra) return;
    this.extra = now;
    // A built-in keeps its name: an MCP tool can never shadow it.
    const all = [...this.base, ...now.filter((t) => !this.base.some((b) => b.name === t.name))];
    this.tools = new Map(all.map((t) => [t.name, t] as const));
    this.specs = all.map(specOf);
  }
}

function specOf(t: AnyAgentTool): ModelToolSpec {
  return { name: t.name, description: t.description, parameters: t.jsonSchema };
}
