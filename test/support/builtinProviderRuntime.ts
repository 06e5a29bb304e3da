import path from 'node:path';
import type { AgentEvent } from '../../src/agent/agentEvents';
import type { Session } from '../../src/agent/session';
import { standardConfigSources } from '../../src/hooks/config/configSources';
import { loadHookConfig } from '../../src/hooks/config/hookConfigLoader';
import type { HookRunRecord } from '../../src/hooks/hookRunTypes';
import type { ModelMessage } from '../../src/model/modelClient';
import { OpenAiModelClient } from '../../src/model/openAiModelClient';
import { HookwiseRuntime } from '../../src/runtime/hookwiseRuntime';
import type { CliWorkspace } from './cliHarness';
import type { OpenAiTestServer, RecordedRequest, ScriptedReply } from './openAiTestServer';
import { startOpenAiTestServer } from './openAiTestServer';

/** One real runtime over a workspace's settings, with the local OpenAI-compatible server as the model. */
export interface ProviderRuntime {
  readonly runtime: HookwiseRuntime;
  readonly session: Session;
  readonly server: OpenAiTestServer;
  readonly events: AgentEvent[];
  readonly runs: HookRunRecord[];
  readonly diagnostics: readonly { readonly message: string }[];
  /** Loads the workspace's settings again (as after the Enable action removed a switch) with these switches. */
  reload(disabled?: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** Options of {@link startProviderRuntime}. */
export interface ProviderRuntimeOptions {
  /** `hookwise.hooks.disabled` of the user settings. */
  readonly disabled?: readonly string[];
  readonly history?: readonly ModelMessage[];
  readonly budget?: number;
}

/**
 * Starts the runtime on `w` (its `.claude/settings.json` hooks), answering with `script`, and
 * creates a trusted session in default mode; the caller calls `session.start` when it needs SessionStart.
 */
export async function startProviderRuntime(
  w: CliWorkspace,
  script: readonly ScriptedReply[] | ((request: RecordedRequest) => ScriptedReply),
  o: ProviderRuntimeOptions = {},
): Promise<ProviderRuntime> {
  const server = await startOpenAiTestServer({ script });
  const events: AgentEvent[] = [];
  const runs: HookRunRecord[] = [];
  const runtime = new HookwiseRuntime({
    projectDir: w.ws,
    homeDir: w.home,
    model: new OpenAiModelClient({ model: 'test-model', baseURL: server.url, apiKey: 'test-key', maxRetries: 0 }),
    modelName: 'test-model',
    transcriptDir: path.join(w.hookwiseHome, 'projects', 'ws'),
    observers: [{ onHookFinished: (r) => void runs.push(r) }],
  });
  const load = (disabled: readonly string[] | undefined) =>
    loadHookConfig(standardConfigSources({ homeDir: w.home, folders: [{ root: w.ws }] }), disabled ? { disabledHooks: disabled } : {});
  const config = await load(o.disabled);
  runtime.applyConfig(config, { trusted: true });
  const session = runtime.createSession({
    permissionMode: 'default',
    trusted: true,
    emit: (event) => events.push(event),
    ...(o.history ? { history: o.history } : {}),
    ...(o.budget ? { compactionBudgetTokens: o.budget } : {}),
  });
  return {
    runtime,
    session,
    server,
    events,
    runs,
    diagnostics: config.diagnostics,
    reload: async (disabled) => void runtime.applyConfig(await load(disabled), { trusted: true }),
    close: async () => {
      await session.end('other');
      await server.close();
    },
  };
}

/** The messages a request carried, as one string to search. */
export function requestText(request: RecordedRequest | undefined): string {
  return JSON.stringify(request?.body.messages ?? []);
}
