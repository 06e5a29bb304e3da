import { z } from 'zod';
import { checkValueBounds } from '../../shared/boundedJson';
import { defineTool, toolError } from './tool';
import type { AnyAgentTool, ToolContext, ToolResult } from './tool';

/**
 * A tool that lives outside the agent (another VS Code extension's, VS Code's own), as its host
 * describes it. The host owns invocation; the agent only sees the name, description and schema.
 */
export interface ExternalToolSpec {
  /** Name the model, hooks and permission rules see (stable, see docs: e.g. `vscode__<tool>`). */
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the input, as the host declared it. */
  readonly inputSchema: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Runs one call in the host. Contract: resolves with a result (failures are `isError`
 * results), honours `ctx.signal`; a throw is turned into an error result by `defineTool`.
 */
export type ExternalToolInvoker = (input: Readonly<Record<string, unknown>>, ctx: ToolContext) => Promise<ToolResult>;

/** Longest description passed to the model; tool descriptions are outside input. */
const MAX_DESCRIPTION_CHARS = 4_000;

const anyObject = z.record(z.string(), z.unknown());

/** The schema the model is given: the host's when it is a bounded object schema, else any object. */
function modelSchema(schema: ExternalToolSpec['inputSchema']): Readonly<Record<string, unknown>> {
  if (schema === undefined || checkValueBounds(schema) !== undefined || schema.type !== 'object') return { type: 'object', properties: {} };
  return schema;
}

/**
 * An agent tool over an external one. It is never read-only and always needs approval by
 * default (the agent cannot know what it does), so every call goes through PreToolUse, the
 * permission gate (ask unless a rule or mode allows) and PostToolUse like a built-in tool.
 * Input is checked to be a JSON object; the host validates the rest against its schema.
 */
export function createExternalTool(spec: ExternalToolSpec, invoke: ExternalToolInvoker): AnyAgentTool {
  const description = spec.description.length > MAX_DESCRIPTION_CHARS ? `${spec.description.slice(0, MAX_DESCRIPTION_CHARS - 1)}…` : spec.description;
  const tool = defineTool({
    name: spec.name,
    description,
    inputSchema: anyObject,
    readOnly: false,
    needsApproval: true,
    summarize: (input) => `${spec.name} ${JSON.stringify(input)}`,
    execute: async (input, ctx) => {
      const tooBig = checkValueBounds(input);
      if (tooBig !== undefined) return toolError(`${spec.name}: input ${tooBig}`);
      return invoke(input, ctx);
    },
  });
  return { ...tool, jsonSchema: modelSchema(spec.inputSchema) } as AnyAgentTool;
}
