/**
 * The API key of the OpenAI-compatible endpoint: kept in VS Code SecretStorage (never in
 * settings), with `OPENAI_API_KEY` from the environment as the fallback. Endpoints that need
 * no key (Ollama, LM Studio) work with neither.
 */
import type * as vscode from 'vscode';

/** The SecretStorage key "Hookwise: Set API Key" writes. */
export const API_KEY_SECRET = 'hookwise.apiKey';

/** The key to use: the stored secret first, else `OPENAI_API_KEY`, else undefined. Empty values count as unset. */
export async function getApiKey(context: Pick<vscode.ExtensionContext, 'secrets'>): Promise<string | undefined> {
  const stored = await context.secrets.get(API_KEY_SECRET);
  if (stored) return stored;
  return process.env.OPENAI_API_KEY || undefined;
}

/**
 * Stores `key` (trimmed — a pasted key often carries a newline); an empty key deletes the
 * secret. Returns what happened, for the confirmation message.
 */
export async function storeApiKey(secrets: vscode.SecretStorage, key: string): Promise<'stored' | 'deleted'> {
  const trimmed = key.trim();
  if (trimmed === '') {
    await secrets.delete(API_KEY_SECRET);
    return 'deleted';
  }
  await secrets.store(API_KEY_SECRET, trimmed);
  return 'stored';
}
