import type { HookEventResult } from '../hooks/hookRunTypes';

/** Most characters of one UserPromptSubmit output that reach the model. */
export const USER_PROMPT_CONTEXT_CAP = 10_000;

/**
 * "<hookName> hook additional context: …" from an event's plain outputs and additionalContext
 * (SessionStart, Setup and UserPromptSubmit treat plain stdout as context); undefined when empty.
 * Claude Code caps each UserPromptSubmit output at {@link USER_PROMPT_CONTEXT_CAP} characters.
 */
export function contextNote(result: HookEventResult, hookName: string): string | undefined {
  const cap = result.event === 'UserPromptSubmit' ? capHookText : (c: string): string => c;
  const context = [...result.plainOutputs, ...result.additionalContext].map((c) => cap(c.trim())).filter((c) => c !== '');
  return context.length > 0 ? `${hookName} hook additional context: ${context.join('\n')}` : undefined;
}

/** Claude Code's cut of an over-long UserPromptSubmit output, with its marker. */
function capHookText(text: string): string {
  if (text.length <= USER_PROMPT_CONTEXT_CAP) return text;
  return `${text.slice(0, USER_PROMPT_CONTEXT_CAP)}… [output truncated - exceeded ${USER_PROMPT_CONTEXT_CAP} characters]`;
}
