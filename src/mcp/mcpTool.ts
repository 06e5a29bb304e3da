import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { AnyAgentTool, ToolResult } from '../agent/tools/tool';
import { toolError } from '../agent/tools/tool';
import { checkValueBounds } from '../shared/boundedJson';
import { describeThrown } from '../shared/describeThrown';
import type { InputSchemaCompiler } from './mcpClient';
import { oneLine } from '../shared/oneLine';

/** Longest tool description sent to the model (Claude Code cuts long MCP descriptions too). */
const MAX_DESCRIPTION = 2048;
/** Bounds of a tool's input schema (real ones are a few levels and a few hundred values). */
const MAX_SCHEMA_DEPTH = 32;
const MAX_SCHEMA_NODES = 10_000;

/** How a tool reaches its server: the manager restarts a crashed server before the call. */
export type McpToolCaller = (server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal) => Promise<ToolResult>;

/** A server tool that could not be offered, and why (a broken input schema). */
export interface McpToolProblem {
  readonly server: string;
  readonly tool: string;
  readonly message: string;
}

/**
 * A server's tool as an agent tool named `name` (`mcp__server__tool`, see mcpToolNames.ts), so
 * the whole tool-call skeleton applies: PreToolUse with `tool_input` = the arguments, rules,
 * the permission gate (asks by default: `needsApproval`, not read-only — unless
 * `trustReadOnlyHint` and the server marks it `readOnlyHint`), PostToolUse and its
 * `updatedMCPToolOutput`. The arguments are checked against the tool's JSON Schema before any
 * hook runs (`compile`: the SDK's ajv, from the MCP client bundle). Returns a problem instead
 * when that schema does not compile.
 */
export function createMcpTool(
  server: string,
  tool: Tool,
  name: string,
  call: McpToolCaller,
  options: { readonly trustReadOnlyHint: boolean; readonly compile: InputSchemaCompiler },
): AnyAgentTool | McpToolProblem {
  // The schema goes to the model and to ajv: a huge or deeply nested one is refused, not sent.
  const tooBig = checkValueBounds(tool.inputSchema, { maxDepth: MAX_SCHEMA_DEPTH, maxNodes: MAX_SCHEMA_NODES });
  if (tooBig !== undefined) return { server, tool: tool.name, message: `its input schema ${tooBig}` };
  let validate: ReturnType<InputSchemaCompiler>;
  try {
    validate = options.compile(tool.inputSchema);
  } catch (error) {
    return { server, tool: tool.name, message: `its input schema is not valid JSON Schema: ${describeThrown(error)}` };
  }
  const inputSchema = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
    const checked = validate(value);
    if (!checked.valid) ctx.addIssue({ code: 'custom', message: checked.errorMessage ?? 'does not match the tool schema' });
  });
  const readOnly = options.trustReadOnlyHint && tool.annotations?.readOnlyHint === true;
  const description = (tool.description ?? tool.title ?? `${tool.name} (MCP server ${server})`).slice(0, MAX_DESCRIPTION);
  return {
    name,
    description,
    inputSchema,
    jsonSchema: tool.inputSchema,
    readOnly,
    needsApproval: !readOnly,
    summarize: (input) => oneLine(`${server} › ${tool.name} ${JSON.stringify(input)}`, 200),
    execute: async (input, ctx) => {
      if (ctx.signal.aborted) return toolError(`${name} was interrupted before it started.`);
      try {
        return await call(server, tool.name, input as Record<string, unknown>, ctx.signal);
      } catch (error) {
        return toolError(`${name} failed unexpectedly: ${describeThrown(error)}`);
      }
    },
  };
}
