import { createBashTool } from './bashTool';
import type { BashToolOptions } from './bashTool';
import { createEditTool } from './editTool';
import { createGlobTool } from './globTool';
import { createGrepTool } from './grepTool';
import { createReadTool } from './readTool';
import type { RipgrepLocator } from './ripgrep';
import type { AnyAgentTool } from './tool';
import { createTaskTools } from './taskTools';
import { createWriteTool } from './writeTool';

/** Options of `createBuiltinTools`, passed on to the tools that take some. */
export interface BuiltinToolsOptions {
  readonly bash?: BashToolOptions;
  /** Where Grep and Glob find ripgrep (one locator: probed once for both); absent = `rg` on PATH. */
  readonly ripgrep?: RipgrepLocator;
}

/**
 * The built-in tools, in the order they are declared to the model: Read, Write, Edit, Glob,
 * Grep, Bash, then Claude Code's task tools (TaskCreate, TaskGet, TaskUpdate, TaskList), which
 * replaced TodoWrite there; `createTodoWriteTool` still builds TodoWrite for hosts that want it.
 * (The `Agent` subagent tool lives with the loop.)
 */
export function createBuiltinTools(options: BuiltinToolsOptions = {}): AnyAgentTool[] {
  return [
    createReadTool(),
    createWriteTool(),
    createEditTool(),
    createGlobTool({ ripgrep: options.ripgrep }),
    createGrepTool({ ripgrep: options.ripgrep }),
    createBashTool(options.bash),
    ...createTaskTools(),
  ];
}
