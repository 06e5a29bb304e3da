import * as vscode from 'vscode';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ModelClient, ModelRequest, ModelStreamEvent } from '../../model/modelClient';
import { OpenAiModelClient } from '../../model/openAiModelClient';
import { PlaygroundModelClient, playgroundLabel } from '../../model/playgroundModelClient';
import { loadPlaygroundScript } from '../../model/playgroundScript';

/** Where the playground looks for a script when `hookwise.model.playgroundScript` is empty. */
export const WORKSPACE_PLAYGROUND_SCRIPT = path.join('.hookwise', 'playground.json');

/** A model, or why there is none (shown in the chat with buttons). */
export type ModelResolution = { readonly ok: true; readonly client: ModelClient } | { readonly ok: false; readonly problem: string };

/**
 * Builds the ModelClient the settings ask for: `hookwise.model.provider` openai-compatible
 * (baseUrl + name + the API key from SecretStorage or OPENAI_API_KEY; endpoints that need no
 * key work without), vscode-lm (via `createLm`), or playground (the script setting, else
 * `.hookwise/playground.json` in the workspace, else the built-in demo script).
 */
export async function modelFromSettings(deps: {
  readonly workspaceRoot: string | undefined;
  readonly extensionUri: vscode.Uri;
  readonly apiKey: () => Promise<string | undefined>;
  readonly createLm?: (name: string) => Promise<ModelResolution>;
}): Promise<ModelResolution> {
  const config = vscode.workspace.getConfiguration('hookwise.model');
  const provider = config.get<string>('provider', 'openai-compatible');
  const name = config.get<string>('name', '').trim();
  if (provider === 'playground') {
    const configured = config.get<string>('playgroundScript', '').trim();
    const candidates = [
      ...(configured ? [path.isAbsolute(configured) || !deps.workspaceRoot ? configured : path.join(deps.workspaceRoot, configured)] : []),
      ...(deps.workspaceRoot ? [path.join(deps.workspaceRoot, WORKSPACE_PLAYGROUND_SCRIPT)] : []),
      vscode.Uri.joinPath(deps.extensionUri, 'media', 'playground', 'demo.json').fsPath,
    ];
    const file = candidates.find((c) => existsSync(c));
    if (!file) return { ok: false, problem: `The playground script ${configured} does not exist.` };
    const loaded = await loadPlaygroundScript(file);
    return loaded.ok ? { ok: true, client: new PlaygroundModelClient(loaded.script) } : { ok: false, problem: loaded.error };
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
  const baseURL = config.get<string>('baseUrl', '').trim() || undefined;
  const apiKey = await deps.apiKey();
  const isOpenAi = baseURL === undefined || /api\.openai\.com/.test(baseURL);
  if (isOpenAi && !apiKey)
    return { ok: false, problem: `Model "${name}" at ${baseURL ?? 'api.openai.com'} needs an API key: run "Hookwise: Set API Key" or set OPENAI_API_KEY.` };
  return { ok: true, client: new OpenAiModelClient({ model: name, ...(baseURL ? { baseURL } : {}), ...(apiKey ? { apiKey } : {}) }) };
}

/**
 * A ModelClient whose target can change (settings edits) without rebuilding the runtime.
 * Without a target every call fails with the configuration problem.
 */
export class SwitchableModelClient implements ModelClient {
  private target: ModelClient | undefined;
  private problem = 'No model is configured.';

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

  set(resolution: ModelResolution): void {
    if (resolution.ok) this.target = resolution.client;
    else {
      this.target = undefined;
      this.problem = resolution.problem;
    }
  }

  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent> {
    if (!this.target) throw new Error(this.problem);
    return this.target.stream(request, signal);
  }
}
