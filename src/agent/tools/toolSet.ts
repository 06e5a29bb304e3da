import type { AnyAgentTool } from './tool';

/** A tool as a model's function declaration (OpenAI `function` shape minus the wrapper). */
export interface ModelToolDeclaration {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

/** An immutable registry of tools, looked up by exact (case-sensitive) name. */
export interface ToolSet {
  /** The tools in registration order. */
  readonly tools: readonly AnyAgentTool[];
  get(name: string): AnyAgentTool | undefined;
  has(name: string): boolean;
  names(): string[];
  /** The declarations to send to the model, in registration order. */
  declarations(): ModelToolDeclaration[];
}

/** Thrown by `createToolSet` for a programming error in the tool list (never at run time). */
export class ToolSetError extends Error {
  readonly reason: 'duplicateName';
  readonly toolName: string;
  constructor(reason: 'duplicateName', toolName: string) {
    super(`Two tools are named "${toolName}"; tool names must be unique.`);
    this.name = new.target.name;
    this.reason = reason;
    this.toolName = toolName;
  }

  static is(err: unknown, reason?: ToolSetError['reason']): err is ToolSetError {
    return err instanceof ToolSetError && (reason === undefined || err.reason === reason);
  }
}

/**
 * Builds a `ToolSet`. Throws `ToolSetError('duplicateName')` when two tools share a name,
 * because a model could not tell them apart and a hook matcher would hit both.
 */
export function createToolSet(tools: readonly AnyAgentTool[]): ToolSet {
  const byName = new Map<string, AnyAgentTool>();
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new ToolSetError('duplicateName', tool.name);
    byName.set(tool.name, tool);
  }
  const list = Object.freeze([...tools]);
  return {
    tools: list,
    get: (name) => byName.get(name),
    has: (name) => byName.has(name),
    names: () => [...byName.keys()],
    declarations: () => list.map((t) => ({ name: t.name, description: t.description, parameters: t.jsonSchema })),
  };
}
