import * as vscode from 'vscode';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ModelClient, ModelRequest, ModelStreamEvent } from '../../model/modelClient';
import { OpenAiModelClient } from '../../model/openAiModelClient';
import { PlaygroundModelClient, playgroundLabel } from '../../model/playgroundModelClient';
import { loadPlaygroundScript, type PlaygroundScript } from '../../model/playgroundScript';
import { isOpenAiHost } from '../../model/endpointOrigin';
import type { ModelApprovals } from './modelApprovals';
import { approvalProblem, type PendingApproval } from './modelApprovalPrompts';
import { decideEndpoint, decideProvider, workspacePlaygroundAllowed, type SettingLayers } from './workspaceModelPolicy';

/** Where the playground looks for a script when `hookwise.model.playgroundScript` is empty. */
export const WORKSPACE_PLAYGROUND_SCRIPT = path.join('.hookwise', 'playground.json');

/** Why a playground script cannot play now, or undefined (e.g. a tour whose project hooks are off). */
export type PlaygroundGate = (script: PlaygroundScript) => string | undefined;

/** A model, or why there is none (shown in the chat with buttons; `approval` when a person's answer would make one). */
export type ModelResolution =
  { readonly ok: true; readonly client: ModelClient } | { readonly ok: false; readonly problem: string; readonly approval?: PendingApproval };

/** Where an empty `hookwise.model.baseUrl` goes: what the openai SDK would use. */
function defaultBaseUrl(): string {
  return process.env.OPENAI_BASE_URL?.trim() || 'https://api.openai.com/v1';
}

/** A setting's user and workspace layers (`inspect`); the user layer falls back to the default. */
function layers(config: vscode.WorkspaceConfiguration, key: string, fallback: string): SettingLayers<string> {
  const inspected = config.inspect<unknown>(key);
  const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
  return {
    user: text(inspected?.globalValue) ?? text(inspected?.defaultValue) ?? fallback,
    workspace: text(inspected?.workspaceValue) ?? text(inspected?.workspaceFolderValue),
  };
}

/**
 * Builds the ModelClient the settings ask for: `hookwise.model.provider` openai-compatible
 * (baseUrl + name + the API key from SecretStorage or OPENAI_API_KEY; endpoints that need no
 * key work without), vscode-lm (via `createLm`), or playground (the script setting, else
 * `.hookwise/playground.json` in a trusted workspace, else the built-in demo script).
 * A workspace's provider and base URL count only as workspaceModelPolicy.ts says: until a
 * person approved them the result is not ok and carries the `approval` to ask for.
 */
export async function modelFromSettings(deps: {
  readonly workspaceRoot: string | undefined;
  readonly extensionUri: vscode.Uri;
  readonly apiKey: () => Promise<string | undefined>;
  readonly createLm?: (name: string) => Promise<ModelResolution>;
  readonly approvals: ModelApprovals;
  /** `vscode.workspace.isTrusted` (a parameter so the caller reads it once per reload). */
  readonly trusted: boolean;
  /** Called when a workspace value is ignored (untrusted workspace, or declined). */
  readonly onIgnored?: (message: string) => void;
  /** Why a playground script cannot play now (PlaygroundModelClientOptions.gate). */
  readonly playgroundGate?: PlaygroundGate;
}): Promise<ModelResolution> {
  const config = vscode.workspace.getConfiguration('hookwise.model');
  const providerDecision = decideProvider(layers(config, 'provider', 'openai-compatible'), deps.trusted, deps.approvals.providerChoice());
  if (providerDecision.kind === 'ask') {
    const approval: PendingApproval = { kind: 'provider', workspaceProvider: providerDecision.workspaceProvider, userProvider: providerDecision.userProvider };
    return { ok: false, problem: approvalProblem(approval, false), approval };
  }
  if (providerDecision.ignoredWorkspaceValue !== undefined)
    deps.onIgnored?.(
      `the workspace's hookwise.model.provider ${JSON.stringify(providerDecision.ignoredWorkspaceValue)} is ignored (${deps.trusted ? 'declined for this workspace' : 'untrusted workspace'}); using ${providerDecision.provider}`,
    );
  const provider = providerDecision.provider;
  const name = config.get<string>('name', '').trim();
  if (provider === 'playground') {
    const configured = config.get<string>('playgroundScript', '').trim();
    const root = workspacePlaygroundAllowed(deps.trusted) ? deps.workspaceRoot : undefined;
    const candidates = [
      ...(configured && (path.isAbsolute(configured) || root) ? [root ? path.resolve(root, configured) : configured] : []),
      ...(root ? [path.join(root, WORKSPACE_PLAYGROUND_SCRIPT)] : []),
      vscode.Uri.joinPath(deps.extensionUri, 'media', 'playground', 'demo.json').fsPath,
    ];
    const file = candidates.find((c) => existsSync(c));
    if (!file) return { ok: false, problem: `The playground script ${configured} does not exist.` };
    const loaded = await loadPlaygroundScript(file);
    const options = deps.playgroundGate ? { gate: deps.playgroundGate } : {};
    return loaded.ok ? { ok: true, client: new PlaygroundModelClient(loaded.script, options) } : { ok: false, problem: loaded.error };
  }
  if (provider === 'vscode-lm') {
    if (!deps.createLm) return { ok: false, problem: 'The VS Code Language Model provider is not available.' };
    return deps.createLm(name);
  }
  if (!name)
    return {
      ok: false,
      problem: 'No model is configured. Choose an OpenAI-compatible endpoint (OpenAI, Ollama, LM Studio…), a VS Code language model, or try the Playground.',
    };
  const apiKey = await deps.apiKey();
  const keyFingerprint = await deps.approvals.fingerprint(apiKey);
  const endpoint = decideEndpoint({
    baseUrl: layers(config, 'baseUrl', ''),
    trusted: deps.trusted,
    defaultUrl: defaultBaseUrl(),
    keyFingerprint,
    isApproved: (origin, fingerprint) => deps.approvals.isEndpointApproved(origin, fingerprint),
  });
  if (endpoint.kind === 'invalid') return { ok: false, problem: endpoint.message };
  if (endpoint.kind === 'ask') {
    const approval: PendingApproval = {
      kind: 'endpoint',
      origin: endpoint.origin,
      url: endpoint.url,
      userUrl: endpoint.userUrl,
      keyFingerprint,
      hasKey: apiKey !== undefined,
    };
    return { ok: false, problem: approvalProblem(approval, false), approval };
  }
  const baseURL = endpoint.url;
  if (isOpenAiHost(baseURL) && !apiKey)
    return { ok: false, problem: `Model "${name}" at ${baseURL} needs an API key: run "Hookwise: Set API Key" or set OPENAI_API_KEY.` };
  return { ok: true, client: new OpenAiModelClient({ model: name, baseURL, ...(apiKey ? { apiKey } : {}) }) };
}

/**
 * A ModelClient whose target can change (settings edits) without rebuilding the runtime.
 * Without a target every call fails with the configuration problem.
 */
export class SwitchableModelClient implements ModelClient {
  private target: ModelClient | undefined;
  private problem = 'No model is configured.';
  private approval: PendingApproval | undefined;

  get label(): string {
    return this.target?.label ?? 'No model';
  }

  /** True when the current model is the scripted playground. */
  get isPlayground(): boolean {
    return this.target?.label === playgroundLabel;
  }

  get configured(): boolean {
    return this.target !== undefined;
  }

  get configurationProblem(): string {
    return this.problem;
  }

  /** The workspace model setting waiting for a person's answer, when that is why there is no model. */
  get pendingApproval(): PendingApproval | undefined {
    return this.approval;
  }

  set(resolution: ModelResolution): void {
    if (resolution.ok) {
      this.target = resolution.client;
      this.approval = undefined;
    } else {
      this.target = undefined;
      this.problem = resolution.problem;
      this.approval = resolution.approval;
    }
  }

  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent> {
    if (!this.target) throw new Error(this.problem);
    return this.target.stream(request, signal);
  }
}
