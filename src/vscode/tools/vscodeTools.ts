/**
 * Tools from VS Code's shared registry (`vscode.lm.tools`: other extensions' tools, VS Code's
 * own, the tools of MCP servers VS Code runs) as agent tools. Opt-in with
 * `hookwise.vscodeTools.enabled`; each call is invoked with `vscode.lm.invokeTool` from the
 * agent's tool step, so it passes PreToolUse, the permission gate (ask by default) and
 * PostToolUse like a built-in tool. Naming and patterns: vscodeToolSelection.ts.
 */
import * as vscode from 'vscode';
import { createExternalTool } from '../../agent/tools/externalTool';
import type { AnyAgentTool, ToolContext, ToolResult } from '../../agent/tools/tool';
import { toolError } from '../../agent/tools/tool';
import { truncateMiddle } from '../../agent/tools/truncate';
import { thrownMessage } from '../../shared/describeThrown';
import { raceAbort } from '../../shared/raceAbort';
import { agentToolName, enabledPatternsSchema, selectLmTools } from './vscodeToolSelection';
import type { LmToolEntry } from './vscodeToolSelection';

/** A call that takes longer is abandoned (its token cancelled) and reported as failed. */
const INVOKE_TIMEOUT_MS = 120_000;
/** Most characters of a tool result the model sees. */
const MAX_RESULT_CHARS = 100_000;

/** `publisher.name` of the extension that declares each tool in its package.json. */
function toolOwners(): Map<string, string> {
  const owners = new Map<string, string>();
  for (const ext of vscode.extensions.all) {
    const declared = (ext.packageJSON as { contributes?: { languageModelTools?: unknown } } | undefined)?.contributes?.languageModelTools;
    if (!Array.isArray(declared)) continue;
    for (const t of declared) if (typeof (t as { name?: unknown }).name === 'string') owners.set((t as { name: string }).name, ext.id);
  }
  return owners;
}

/** Every tool VS Code offers right now, with its contributing extension when one declares it. */
export function lmToolEntries(): LmToolEntry[] {
  const owners = toolOwners();
  return vscode.lm.tools.map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: t.inputSchema as Readonly<Record<string, unknown>> | undefined,
    tags: t.tags,
    extensionId: owners.get(t.name),
  }));
}

/** The `hookwise.vscodeTools.enabled` patterns; a malformed value enables nothing (and says so). */
export function enabledPatterns(log?: vscode.LogOutputChannel): string[] {
  const raw = vscode.workspace.getConfiguration('hookwise').get<unknown>('vscodeTools.enabled', []);
  const parsed = enabledPatternsSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  log?.warn(
    `settings: hookwise.vscodeTools.enabled ignored (${parsed.error.issues[0]?.message ?? 'invalid'}); expected a list of patterns like "publisher.extension/*"`,
  );
  return [];
}

/** A tool result's parts as the text the model sees. */
function resultText(result: vscode.LanguageModelToolResult): string {
  const texts: string[] = [];
  for (const part of result.content) {
    if (part instanceof vscode.LanguageModelTextPart) texts.push(part.value);
    else if (part instanceof vscode.LanguageModelPromptTsxPart) texts.push(JSON.stringify(part.value));
    else {
      // Data parts (images, JSON) arrived after the 1.95 API: text-like ones are decoded, others named.
      const data = part as { mimeType?: unknown; data?: unknown };
      if (typeof data.mimeType === 'string' && data.data instanceof Uint8Array) {
        texts.push(
          /^(text\/|application\/json)/.test(data.mimeType) ? new TextDecoder().decode(data.data) : `[${data.mimeType}, ${data.data.byteLength} bytes]`,
        );
      }
    }
  }
  return texts.join('\n');
}

/** Invokes `lmName` with `input`; Stop and the timeout cancel the call's token. */
async function invokeLmTool(lmName: string, input: Readonly<Record<string, unknown>>, ctx: ToolContext): Promise<ToolResult> {
  const name = agentToolName(lmName);
  const cancellation = new vscode.CancellationTokenSource();
  const timeout = AbortSignal.timeout(INVOKE_TIMEOUT_MS);
  const signal = AbortSignal.any([ctx.signal, timeout]);
  const onAbort = (): void => cancellation.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    // No toolInvocationToken: the call is not part of VS Code's chat, so VS Code shows no confirmation of its own (Hookwise's gate asked).
    const result = await raceAbort(vscode.lm.invokeTool(lmName, { input, toolInvocationToken: undefined }, cancellation.token), signal);
    const { text, cut } = truncateMiddle(resultText(result), MAX_RESULT_CHARS);
    const content = cut > 0 ? `${text}\n[${cut} characters of the result left out]` : text;
    return { content: content === '' ? `${name} returned no text.` : content, isError: false, data: { content: [{ type: 'text', text: content }] } };
  } catch (error) {
    if (ctx.signal.aborted) return toolError(`${name} was interrupted.`);
    if (timeout.aborted) return toolError(`${name} did not answer within ${INVOKE_TIMEOUT_MS / 1000} s and was cancelled.`);
    return toolError(`${name} failed: ${thrownMessage(error)}`);
  } finally {
    signal.removeEventListener('abort', onAbort);
    cancellation.cancel();
    cancellation.dispose();
  }
}

/** Options of {@link createVscodeTools}. */
export interface VscodeToolsOptions {
  /** Patterns of `hookwise.vscodeTools.enabled`. */
  readonly patterns: readonly string[];
  /** Tools never offered (Hookwise's own tool; tools its own MCP client already offers). */
  readonly exclude?: (tool: LmToolEntry) => boolean;
  /** The registry; default `lmToolEntries()`. */
  readonly entries?: readonly LmToolEntry[];
}

/** The enabled VS Code tools as agent tools named `vscode__<name>` (read at session start). */
export function createVscodeTools(options: VscodeToolsOptions): AnyAgentTool[] {
  if (options.patterns.length === 0) return [];
  const selected = selectLmTools(options.entries ?? lmToolEntries(), options.patterns, options.exclude);
  return selected.map((entry) =>
    createExternalTool(
      {
        name: agentToolName(entry.name),
        description: entry.description || `The VS Code tool ${entry.name}.`,
        inputSchema: entry.inputSchema,
      },
      (input, ctx) => invokeLmTool(entry.name, input, ctx),
    ),
  );
}
