/**
 * Errors of the VS Code Language Model API as the port's `ModelError`, with messages that say
 * what to do: consent (NoPermissions), quota or policy (Blocked), a model that went away
 * (NotFound), anything else the provider threw.
 */
import * as vscode from 'vscode';
import { ModelError } from '../../model/modelError';
import { thrownMessage } from '../../shared/describeThrown';

const pickAnother = 'Choose another with "Hookwise: Select Model…".';

/** The `code` of a LanguageModelError, also when the instance comes from another realm. */
function lmErrorCode(error: unknown): string | undefined {
  if (error instanceof vscode.LanguageModelError) return error.code;
  // Duck-typed too: providers may rethrow a copy that fails instanceof.
  if (error instanceof Error && error.name.startsWith('LanguageModelError')) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}

/**
 * Maps anything `sendRequest` or its stream threw (other than the caller's abort, which the
 * client rethrows as is) to a ModelError naming `modelName`.
 */
export function toLmModelError(error: unknown, modelName: string): ModelError {
  if (error instanceof ModelError) return error;
  const detail = thrownMessage(error);
  const options = { cause: error };
  switch (lmErrorCode(error)) {
    case vscode.LanguageModelError.NoPermissions.name:
      return new ModelError(
        'auth',
        `Hookwise may not use the language model "${modelName}" yet. Allow it when VS Code asks (or under "Manage Language Model Access" in the Accounts menu), then send again.`,
        options,
      );
    case vscode.LanguageModelError.Blocked.name:
      return new ModelError(
        'rateLimited',
        `The language model "${modelName}" refused the request (quota or rate limit: ${detail}). Try again later, or choose another model with "Hookwise: Select Model…".`,
        {
          ...options,
          retryable: true,
        },
      );
    case vscode.LanguageModelError.NotFound.name:
      return new ModelError(
        'notFound',
        `The language model "${modelName}" is no longer available (its extension was disabled or signed out). ${pickAnother}`,
        options,
      );
    default:
      break;
  }
  if (error instanceof vscode.CancellationError) {
    return new ModelError('aborted', `The request to the language model "${modelName}" was cancelled.`, options);
  }
  return new ModelError('server', `The language model "${modelName}" failed: ${detail}`, options);
}
