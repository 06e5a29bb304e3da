/**
 * The "Hookwise: Select Model…" dialogs: pick a provider, then what that provider needs —
 * base URL and model name for an OpenAI-compatible endpoint (names listed from its /models
 * when it answers quickly), one of VS Code's chat models, or a playground script. Returns the
 * choice; writing it is the caller's business. Undefined whenever the user cancels.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { OpenAiModelClient } from '../../model/openAiModelClient';
import { WORKSPACE_PLAYGROUND_SCRIPT } from './modelFromSettings';
import type { ModelSelection } from './modelSelection';
import { currentModelSettings } from './modelSelection';
import { listLanguageModels } from './vscodeLmModelClient';
import { playgroundScriptItems } from './playgroundScriptItems';
import { thrownMessage } from '../../shared/describeThrown';

/** What the flow needs from outside. */
export interface SelectModelDeps {
  /** The API key to list an endpoint's models with (SecretStorage, else OPENAI_API_KEY). */
  readonly apiKey: () => Promise<string | undefined>;
  readonly log: vscode.LogOutputChannel;
}

/** Shown in the base URL box when nothing is configured: the usual local endpoint. */
const ollamaHint = 'http://localhost:11434/v1';
/** How long the model list may take before we just ask for a name. */
const listTimeoutMs = 4_000;

type ProviderItem = vscode.QuickPickItem & { readonly provider: ModelSelection['provider'] };

/** Runs the dialogs; the result is validated by construction. */
export async function pickModelSelection(deps: SelectModelDeps): Promise<ModelSelection | undefined> {
  const current = currentModelSettings();
  const mark = (provider: string): string | undefined => (provider === current.provider ? 'current' : undefined);
  const items: ProviderItem[] = [
    {
      provider: 'openai-compatible',
      label: '$(globe) OpenAI-compatible endpoint',
      description: mark('openai-compatible'),
      detail: 'OpenAI, Azure, Ollama, LM Studio, vLLM, OpenRouter… — a base URL and a model name',
    },
    {
      provider: 'vscode-lm',
      label: '$(sparkle) VS Code Language Model',
      description: mark('vscode-lm'),
      detail: 'A chat model another extension provides to VS Code (for example GitHub Copilot Chat)',
    },
    {
      provider: 'playground',
      label: '$(beaker) Playground',
      description: mark('playground'),
      detail: 'Replays a scripted session offline — no model, no network; try hooks safely',
    },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Hookwise: Select Model — provider',
    placeHolder: "Where should the agent's model come from?",
    ignoreFocusOut: true,
  });
  switch (picked?.provider) {
    case undefined:
      return undefined;
    case 'openai-compatible':
      return pickOpenAiCompatible(deps, current);
    case 'vscode-lm':
      return pickLanguageModel(current);
    case 'playground':
      return pickPlaygroundScript(current);
  }
}

async function pickOpenAiCompatible(deps: SelectModelDeps, current: ReturnType<typeof currentModelSettings>): Promise<ModelSelection | undefined> {
  const baseUrl = await vscode.window.showInputBox({
    title: 'Hookwise: Select Model — base URL',
    prompt: `Base URL of the OpenAI-compatible endpoint, e.g. https://api.openai.com/v1, ${ollamaHint} (Ollama), http://localhost:1234/v1 (LM Studio)`,
    value: current.baseUrl || ollamaHint,
    placeHolder: ollamaHint,
    ignoreFocusOut: true,
    validateInput: (value) => (isHttpUrl(value.trim()) ? undefined : 'Enter an http:// or https:// URL'),
  });
  if (baseUrl === undefined) return undefined;
  const url = baseUrl.trim().replace(/\/+$/, '');
  const previousName = current.provider === 'openai-compatible' ? current.name : '';
  const listed = await listEndpointModels(url, deps);
  if (listed.length > 0) {
    const other = { label: '$(edit) Other model name…', alwaysShow: true } satisfies vscode.QuickPickItem;
    const choice = await vscode.window.showQuickPick(
      [...listed.map((id) => ({ label: id, description: id === previousName ? 'current' : undefined })), other],
      {
        title: 'Hookwise: Select Model — model',
        placeHolder: `Models at ${url}`,
        ignoreFocusOut: true,
      },
    );
    if (choice === undefined) return undefined;
    if (choice !== other) return { provider: 'openai-compatible', baseUrl: url, name: choice.label };
  }
  const name = await vscode.window.showInputBox({
    title: 'Hookwise: Select Model — model name',
    prompt: `Model name sent to ${url}`,
    value: previousName,
    placeHolder: 'e.g. gpt-4.1, qwen2.5-coder',
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim() === '' ? 'Enter the model name' : undefined),
  });
  return name === undefined ? undefined : { provider: 'openai-compatible', baseUrl: url, name: name.trim() };
}

/** The endpoint's model ids, or [] when it does not answer quickly (the user then types a name). */
async function listEndpointModels(baseURL: string, deps: SelectModelDeps): Promise<string[]> {
  try {
    const apiKey = await deps.apiKey();
    const client = new OpenAiModelClient({ baseURL, model: '', maxRetries: 0, timeoutMs: listTimeoutMs, ...(apiKey ? { apiKey } : {}) });
    return await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Looking up the models at ${baseURL}…`, cancellable: true },
      (_progress, token) => {
        const cancelled = new AbortController();
        const subscription = token.onCancellationRequested(() => cancelled.abort());
        return client.listModels(AbortSignal.any([cancelled.signal, AbortSignal.timeout(listTimeoutMs)])).finally(() => subscription.dispose());
      },
    );
  } catch (error) {
    deps.log.info(`Select Model: could not list the models at ${baseURL}: ${thrownMessage(error)}`);
    return [];
  }
}

async function pickLanguageModel(current: ReturnType<typeof currentModelSettings>): Promise<ModelSelection | undefined> {
  const models = await listLanguageModels();
  if (models.length === 0) {
    await vscode.window.showWarningMessage(
      'VS Code has no language model available. Install and sign in to an extension that provides one (for example GitHub Copilot Chat), then run "Hookwise: Select Model…" again — or pick an OpenAI-compatible endpoint or the Playground.',
    );
    return undefined;
  }
  const previous = current.provider === 'vscode-lm' ? current.name : undefined;
  const choice = await vscode.window.showQuickPick(
    models.map((m) => ({
      label: m.name,
      description: [m.vendor, m.family, m.id === previous ? 'current' : undefined].filter(Boolean).join(' · '),
      detail: `${m.id} · ${m.maxInputTokens.toLocaleString('en-US')} input tokens`,
      id: m.id,
    })),
    { title: 'Hookwise: Select Model — VS Code language model', placeHolder: 'Choose a chat model', matchOnDetail: true, ignoreFocusOut: true },
  );
  return choice === undefined ? undefined : { provider: 'vscode-lm', name: choice.id };
}

async function pickPlaygroundScript(current: ReturnType<typeof currentModelSettings>): Promise<ModelSelection | undefined> {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  const workspaceScript = root ? vscode.Uri.joinPath(root, ...WORKSPACE_PLAYGROUND_SCRIPT.split(path.sep)) : undefined;
  const found = workspaceScript !== undefined && existsSync(workspaceScript.fsPath);
  const items = playgroundScriptItems({ ...current, ...(found ? { workspaceScript: workspaceScript.fsPath } : {}) }, WORKSPACE_PLAYGROUND_SCRIPT);
  const choice = await vscode.window.showQuickPick(items, { title: 'Hookwise: Select Model — playground script', ignoreFocusOut: true });
  if (choice === undefined) return undefined;
  if (choice.script !== undefined) return { provider: 'playground', playgroundScript: choice.script };
  const files = await vscode.window.showOpenDialog({
    title: 'Playground script',
    defaultUri: found ? workspaceScript : root,
    canSelectMany: false,
    filters: { 'Playground script': ['json', 'jsonc'] },
    openLabel: 'Use Script',
  });
  const file = files?.[0];
  return file === undefined ? undefined : { provider: 'playground', playgroundScript: file.fsPath };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
