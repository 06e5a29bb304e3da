import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { AgentEvent } from '../../../src/agent/agentEvents';
import { HookwiseRuntime } from '../../../src/runtime/hookwiseRuntime';
import type { MemoryApprovalPins } from '../../../src/agent/memory/memoryApproval';
import type { PermissionMode } from '../../../src/permissions/permissionMode';
import type { PermissionProvider } from '../../../src/hooks/hookRunTypes';
import type { Session } from '../../../src/agent/session';
import { standardConfigSources } from '../../../src/hooks/config/configSources';
import { loadHookConfig } from '../../../src/hooks/config/hookConfigLoader';
import { OpenAiModelClient } from '../../../src/model/openAiModelClient';
import type { OpenAiTestServer, OpenAiTestServerOptions } from '../../support/openAiTestServer';
import { startOpenAiTestServer } from '../../support/openAiTestServer';
import type { CliWorkspace } from '../../support/cliHarness';
import { makeCliWorkspace } from '../../support/cliHarness';

/**
 * The runtime the extension builds, in-process: a temp workspace and HOME, the workspace's
 * `.claude` files loaded as the extension loads them, a real OpenAI-compatible server as the
 * model. For tests of trust and permissions, which the CLI (always trusted) cannot reach.
 */
export interface RuntimeEnv {
  readonly w: CliWorkspace;
  /** Starts the model server with `script`, loads the config, and runs one prompt in a new session. */
  runPrompt(options: {
    readonly script: OpenAiTestServerOptions['script'];
    readonly trusted: boolean;
    readonly mode?: PermissionMode;
    readonly prompt?: string;
    /** The prompt's chat attachments: their texts, and the attached files among them. */
    readonly attachments?: readonly string[];
    readonly attachedFiles?: readonly string[];
    /** Called once the runtime is built, before the session: register in-process hooks, observers. */
    readonly setup?: (runtime: HookwiseRuntime) => void;
    /** RuntimeOptions.protectedFiles (the extension passes VS Code's settings files). */
    readonly protectedFiles?: readonly string[];
    /** Load the workspace's `.claude/skills` first, as the extension does. */
    readonly skills?: boolean;
    /** RuntimeOptions.permissionProvider (the extension's modal); absent = headless. */
    readonly permissionProvider?: PermissionProvider;
    /** RuntimeOptions.memoryApprovals (the extension's per-workspace pins). */
    readonly memoryApprovals?: MemoryApprovalPins;
  }): Promise<RuntimeRun>;
}

/** What one prompt did. */
export interface RuntimeRun {
  readonly runtime: HookwiseRuntime;
  readonly session: Session;
  readonly server: OpenAiTestServer;
  readonly events: readonly AgentEvent[];
  /** The last status of each tool call, by tool_use id. */
  readonly toolStatus: ReadonlyMap<string, string>;
}

export function useRuntimeEnv(): RuntimeEnv {
  let w: CliWorkspace | undefined;
  const servers: OpenAiTestServer[] = [];
  beforeEach(async () => {
    w = await makeCliWorkspace();
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
    await w?.cleanup();
  });
  const env: RuntimeEnv = {
    get w() {
      if (!w) throw new Error('useRuntimeEnv: no workspace outside a test');
      return w;
    },
    async runPrompt(options) {
      const ws = env.w;
      const server = await startOpenAiTestServer({ script: options.script });
      servers.push(server);
      const runtime = new HookwiseRuntime({
        projectDir: ws.ws,
        homeDir: ws.home,
        model: new OpenAiModelClient({ model: 'test-model', baseURL: server.url, apiKey: 'k', maxRetries: 0 }),
        transcriptDir: path.join(ws.hookwiseHome, 'projects', 'ws'),
        askFallback: 'deny',
        ...(options.protectedFiles ? { protectedFiles: options.protectedFiles } : {}),
        ...(options.permissionProvider ? { permissionProvider: options.permissionProvider } : {}),
        ...(options.memoryApprovals ? { memoryApprovals: options.memoryApprovals } : {}),
      });
      runtime.applyConfig(await loadHookConfig(standardConfigSources({ homeDir: ws.home, folders: [{ root: ws.ws }] })), { trusted: options.trusted });
      options.setup?.(runtime);
      if (options.skills === true) await runtime.loadSkills([{ dir: path.join(ws.ws, '.claude', 'skills'), displayDir: '.claude/skills', scope: 'project' }]);
      const events: AgentEvent[] = [];
      const session = runtime.createSession({ permissionMode: options.mode ?? 'default', trusted: options.trusted, emit: (e) => events.push(e) });
      await session.start('startup', new AbortController().signal);
      await session.submit(options.prompt ?? 'go', new AbortController().signal, options.attachments, options.attachedFiles);
      await session.end('other');
      const toolStatus = new Map<string, string>();
      for (const e of events) if (e.type === 'toolStatus') toolStatus.set(e.toolUseId, e.status);
      return { runtime, session, server, events, toolStatus };
    },
  };
  return env;
}
