/**
 * The model setup commands: "Hookwise: Set API Key" (SecretStorage) and "Hookwise: Select
 * Model…" (writes the `hookwise.model.*` settings). Both take an optional argument that skips
 * the dialogs — the key, or a `ModelSelection` — for tests, links and other extensions.
 */
import * as vscode from 'vscode';
import { getApiKey, storeApiKey } from './apiKey';
import { modelSelectionSchema, workspaceWritesOf, writeModelSelection } from './modelSelection';
import type { ModelSelection, WorkspaceWrites } from './modelSelection';
import { ModelApprovals } from './modelApprovals';
import { parseEndpoint } from '../../model/endpointOrigin';
import { pickModelSelection } from './selectModelFlow';
import { completeTourSteps } from '../tourProgress';

export { getApiKey } from './apiKey';

/** Command ids contributed in package.json. */
export const MODEL_COMMANDS = {
  setApiKey: 'hookwise.setApiKey',
  selectModel: 'hookwise.selectModel',
} as const;

/** Hosts that are this machine: endpoints there (Ollama, LM Studio) usually need no key. */
const localHosts = new Set(['localhost', '127.0.0.1', '[::1]', '0.0.0.0']);

/**
 * Registers both commands; their registrations are owned by `context.subscriptions`.
 * - `hookwise.setApiKey(key?: string)`: password box (or `key`); stores it as the
 *   `hookwise.apiKey` secret, an empty key deletes it. Resolves `'stored' | 'deleted'`, or
 *   undefined when cancelled.
 * - `hookwise.selectModel(selection?: ModelSelection)`: the dialogs (or `selection`), then writes
 *   the settings. Resolves the selection written, or undefined when cancelled or invalid.
 * The key is never logged.
 */
export function registerModelCommands(context: vscode.ExtensionContext, deps: { readonly log: vscode.LogOutputChannel }): void {
  const { log } = deps;
  context.subscriptions.push(
    vscode.commands.registerCommand(MODEL_COMMANDS.setApiKey, async (key?: unknown) => {
      const entered =
        typeof key === 'string'
          ? key
          : await vscode.window.showInputBox({
              title: 'Hookwise: Set API Key',
              prompt: 'API key of the OpenAI-compatible endpoint, kept in VS Code secret storage (never in settings). Leave empty to remove the stored key.',
              placeHolder: 'sk-…',
              password: true,
              ignoreFocusOut: true,
            });
      if (entered === undefined) return undefined;
      const result = await storeApiKey(context.secrets, entered);
      log.info(result === 'stored' ? 'API key stored in secret storage.' : 'Stored API key removed.');
      const fallback = process.env.OPENAI_API_KEY
        ? ' OPENAI_API_KEY from the environment is used instead.'
        : ' Endpoints that need a key will now fail until one is set.';
      void vscode.window.showInformationMessage(
        result === 'stored' ? 'Hookwise saved the API key in VS Code secret storage.' : `Hookwise removed the stored API key.${fallback}`,
      );
      return result;
    }),
    vscode.commands.registerCommand(MODEL_COMMANDS.selectModel, async (answers?: unknown) => {
      void completeTourSteps(context.extension, `onCommand:${MODEL_COMMANDS.selectModel}`, log);
      let selection: ModelSelection | undefined;
      if (answers === undefined) {
        selection = await pickModelSelection({ apiKey: () => getApiKey(context), log });
      } else {
        const parsed = modelSelectionSchema.safeParse(answers);
        if (!parsed.success) {
          log.warn(`hookwise.selectModel: invalid argument: ${parsed.error.message}`);
          void vscode.window.showErrorMessage(
            `Hookwise: Select Model got an invalid argument: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
          );
          return undefined;
        }
        selection = parsed.data;
      }
      if (selection === undefined) return undefined;
      await approveWorkspaceWrites(workspaceWritesOf(selection), context);
      await writeModelSelection(selection);
      log.info(`Model set: ${describeSelection(selection)}`);
      void confirmSelection(selection, context);
      return selection;
    }),
  );
}

/**
 * A selection written into the workspace's settings (because the workspace already sets those
 * keys) is the person's own choice there: record it as approved, so it is not asked about.
 */
async function approveWorkspaceWrites(writes: WorkspaceWrites, context: vscode.ExtensionContext): Promise<void> {
  const approvals = new ModelApprovals(context);
  if (writes.provider !== undefined) await approvals.setProviderChoice({ provider: writes.provider, use: true });
  const endpoint = writes.baseUrl === undefined ? undefined : parseEndpoint(writes.baseUrl);
  if (endpoint?.ok) await approvals.approveEndpoint(endpoint.origin, await approvals.fingerprint(await getApiKey(context)));
}

/** One line for the log and the confirmation. */
export function describeSelection(selection: ModelSelection): string {
  switch (selection.provider) {
    case 'openai-compatible':
      return `${selection.name} at ${selection.baseUrl}`;
    case 'vscode-lm':
      return selection.name === '' ? 'the first VS Code language model' : `VS Code language model ${selection.name}`;
    case 'playground':
      return selection.playgroundScript === '' ? 'the Playground (default script)' : `the Playground (${selection.playgroundScript})`;
  }
}

/** Confirms the choice; a remote endpoint without any key gets a "Set API Key" button. */
async function confirmSelection(selection: ModelSelection, context: vscode.ExtensionContext): Promise<void> {
  const message = `Hookwise now uses ${describeSelection(selection)}.`;
  if (selection.provider === 'openai-compatible' && !localHosts.has(new URL(selection.baseUrl).hostname) && (await getApiKey(context)) === undefined) {
    const setKey = 'Set API Key';
    const answer = await vscode.window.showWarningMessage(
      `${message} It probably needs an API key, and none is set (secret storage or OPENAI_API_KEY).`,
      setKey,
    );
    if (answer === setKey) await vscode.commands.executeCommand(MODEL_COMMANDS.setApiKey);
    return;
  }
  await vscode.window.showInformationMessage(message);
}
