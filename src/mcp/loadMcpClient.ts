import { describeThrown } from '../shared/describeThrown';
import type * as McpClientModule from './mcpClient';

/** The MCP client bundle's exports (src/mcp/mcpClient.ts). */
export type McpClient = typeof McpClientModule;

/** Loads the MCP client; rejects with a message naming what failed. */
export type McpClientLoader = () => Promise<McpClient>;

let loaded: Promise<McpClient> | undefined;

/**
 * The MCP SDK and the code that drives it, loaded on first call (once an MCP server is
 * configured) and shared afterwards. Rejects with an Error saying the client could not be
 * loaded (the bundle file missing, say); a later call tries again.
 */
export const loadMcpClient: McpClientLoader = () => {
  // esbuild turns this into a require of dist/mcp.js beside the bundle (see esbuild.mjs): users
  // without MCP servers never parse the SDK.
  loaded ??= import('./mcpClient')
    .then((client) => {
      // A bundle whose first load threw is cached by the bundler as an empty module.
      if (typeof client.McpConnection !== 'function' || typeof client.compileInputSchema !== 'function') throw new Error('the MCP client bundle is incomplete');
      return client;
    })
    .catch((error: unknown) => {
      loaded = undefined;
      // Node's require error goes on with the require stack; its first line says what is missing.
      throw new Error(`cannot load the MCP client (${describeThrown(error).split('\n')[0]})`);
    });
  return loaded;
};
