import type { HookAction, HookActionContext, HookActionResult } from '../hookAction';
import { proceed } from '../hookOutcome';
import { interpretCommandResult } from './interpretCommandResult';
import { thrownMessage } from '../../shared/describeThrown';

/** Calls one tool of a configured MCP server (the session's MCP servers); text is the tool's text content. */
export type McpToolCaller = (
  server: string,
  tool: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<{ readonly text: string; readonly isError: boolean }>;

/** Longest text a substituted value may bring into the arguments. */
const MAX_SUBSTITUTED_CHARS = 256 * 1024;

/**
 * An `mcp_tool` hook (Claude Code 2.1.118): calls `tool` on MCP server `server` with `input`,
 * whose string values may use `${path}` into the hook input (`${tool_input.file_path}`,
 * `${session_id}`); the tool's text is read like a command hook's stdout on exit 0 (the same JSON
 * decision fields). A tool error, an unknown or stopped server, or a timeout is a non-blocking
 * failure (fail closed with `continueOnFailure: false`). Never throws.
 */
export class McpToolHookAction implements HookAction {
  readonly kind = 'mcp_tool';
  readonly label: string;
  readonly dedupKey: string;
  readonly defaultTimeoutMs = 60_000;

  constructor(
    readonly server: string,
    readonly tool: string,
    private readonly input: Readonly<Record<string, unknown>>,
    private readonly call: McpToolCaller,
  ) {
    this.label = `mcp__${server}__${tool}`;
    this.dedupKey = `mcp_tool ${server} ${tool} ${JSON.stringify(input)}`;
  }

  async run(hookInput: Readonly<Record<string, unknown>>, ctx: HookActionContext): Promise<HookActionResult> {
    const args = substitute(this.input, hookInput) as Record<string, unknown>;
    let result: { text: string; isError: boolean };
    try {
      result = await this.call(this.server, this.tool, args, ctx.signal);
    } catch (error) {
      return { status: ctx.signal.aborted ? 'cancelled' : 'failed', outcome: proceed(), error: `${this.label}: ${thrownMessage(error)}` };
    }
    const raw = { stdout: result.text, stderr: '', exitCode: null };
    if (ctx.signal.aborted) return { status: 'cancelled', outcome: proceed(), error: 'cancelled: the tool call was stopped (timeout or Stop)', raw };
    if (result.isError) return { status: 'failed', outcome: proceed(), error: `${this.label} failed: ${result.text.slice(0, 500)}`, raw };
    return { ...interpretCommandResult(ctx.event, 0, result.text, '', this.label), raw };
  }
}

/** `${a.b.c}` in string values → that path of the hook input (objects as JSON; a missing path as empty). */
export function substitute(value: unknown, hookInput: Readonly<Record<string, unknown>>): unknown {
  if (typeof value === 'string') {
    // A value that is exactly one placeholder keeps the input's type (a number stays a number).
    const whole = /^\$\{([\w.]+)\}$/.exec(value);
    if (whole) return lookup(hookInput, whole[1] as string) ?? '';
    return value.replace(/\$\{([\w.]+)\}/g, (_m, p: string) => {
      const v = lookup(hookInput, p);
      const text = v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v);
      return text.length > MAX_SUBSTITUTED_CHARS ? text.slice(0, MAX_SUBSTITUTED_CHARS) : text;
    });
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, hookInput));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, hookInput)]));
  return value;
}

function lookup(root: Readonly<Record<string, unknown>>, dotted: string): unknown {
  let cur: unknown = root;
  for (const key of dotted.split('.')) {
    if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, key)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}
