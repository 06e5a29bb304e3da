/**
 * Everything that needs the MCP SDK at run time: the entry of its own bundle, dist/mcp.js
 * (see esbuild.mjs), which loadMcpClient.ts requires only once an MCP server is configured.
 * Other files import from the SDK only types.
 */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation/types.js';

export { McpConnection } from './mcpConnection';

/** Checks one value against a compiled schema; `errorMessage` says what does not match. */
export type InputValidator = (input: unknown) => { valid: boolean; errorMessage?: string | undefined };

/** Compiles a tool's input JSON Schema; throws when it is not valid JSON Schema. */
export type InputSchemaCompiler = (schema: unknown) => InputValidator;

let validators: AjvJsonSchemaValidator | undefined;

/** The MCP SDK's ajv validator, one instance for every tool (it caches compiled schemas). */
export const compileInputSchema: InputSchemaCompiler = (schema) => {
  validators ??= new AjvJsonSchemaValidator();
  return validators.getValidator(schema as JsonSchemaType);
};
