/**
 * Maps the ModelClient port's messages and tools onto the VS Code Language Model API (1.95):
 * it has only User and Assistant roles, tool calls are `LanguageModelToolCallPart`s in an
 * Assistant message and tool results are `LanguageModelToolResultPart`s in a User message.
 * Pure functions over the vscode classes, so the integration test can check the part types in
 * a real extension host.
 */
import * as vscode from 'vscode';
import type { ModelMessage, ModelRequest, ModelToolSpec } from '../../model/modelClient';
import { parseBoundedJson } from '../../shared/boundedJson';

type UserPart = vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart;
type AssistantPart = vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart;

/** One LM message under construction; adjacent messages of the same role are merged into it. */
type Draft = { role: 'user'; parts: UserPart[] } | { role: 'assistant'; parts: AssistantPart[] };

/** Port tools → `LanguageModelChatTool`s (name, description, JSON-schema `inputSchema`). */
export function toLmTools(tools: readonly ModelToolSpec[]): vscode.LanguageModelChatTool[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: { ...tool.parameters } }));
}

/**
 * A tool call's `argumentsText` as the object `LanguageModelToolCallPart` wants. Broken JSON,
 * or JSON that is not an object, becomes `{}`: the call already failed with its own tool
 * result, which tells the model what was wrong, and providers reject a non-object input.
 */
export function parseToolInput(argumentsText: string): object {
  // Too deep counts as broken: VS Code serializes the input again, and that would overflow the stack.
  const parsed = parseBoundedJson(argumentsText);
  if (!parsed.ok) return {};
  const value = parsed.value;
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
}

/**
 * The instruction that stands in for `responseSchema`: the 1.95 API has no structured output,
 * so the model is asked in words and the caller parses the text as it does for any endpoint
 * that ignores `response_format`.
 */
export function responseSchemaInstruction(schema: NonNullable<ModelRequest['responseSchema']>): string {
  return `Answer with only a JSON object (no prose, no code fence) that matches this JSON Schema ("${schema.name}"):\n${JSON.stringify(schema.schema)}`;
}

/**
 * Port messages → LM messages.
 * - System messages before the first user turn are prepended to the first User message
 *   (the API has no system role); later ones (hook-injected context) become user text where
 *   they stand, marked as system text, so they keep their place in the conversation.
 * - Assistant tool calls → `LanguageModelToolCallPart(id, name, parsed input)`.
 * - Tool results → `LanguageModelToolResultPart(callId, [text])` in a User message.
 * - Adjacent messages of the same role are merged (several tool results of one step go in one
 *   User message, as providers that require alternating roles expect).
 * `extraInstruction` (e.g. `responseSchemaInstruction`) is added as user text at the very end.
 */
export function toLmMessages(messages: readonly ModelMessage[], extraInstruction?: string): vscode.LanguageModelChatMessage[] {
  const drafts: Draft[] = [];
  const preamble: string[] = [];
  let sawUser = false;
  const pushUser = (part: UserPart): void => {
    const last = drafts.at(-1);
    if (last?.role === 'user') last.parts.push(part);
    else drafts.push({ role: 'user', parts: [part] });
  };
  const pushAssistant = (parts: AssistantPart[]): void => {
    if (parts.length === 0) return;
    const last = drafts.at(-1);
    if (last?.role === 'assistant') last.parts.push(...parts);
    else drafts.push({ role: 'assistant', parts });
  };

  /** Leading system text goes with the first user content; returns it once, then ''. */
  const takePreamble = (): string => {
    sawUser = true;
    const text = preamble.join('\n\n');
    preamble.length = 0;
    return text;
  };

  for (const message of messages) {
    switch (message.role) {
      case 'system':
        if (!sawUser) preamble.push(message.content);
        else pushUser(new vscode.LanguageModelTextPart(`[System]\n${message.content}`));
        break;
      case 'user': {
        const lead = takePreamble();
        pushUser(new vscode.LanguageModelTextPart(lead === '' ? message.content : `${lead}\n\n${message.content}`));
        break;
      }
      case 'assistant': {
        const parts: AssistantPart[] = [];
        if (message.content !== '') parts.push(new vscode.LanguageModelTextPart(message.content));
        for (const call of message.toolCalls ?? []) parts.push(new vscode.LanguageModelToolCallPart(call.id, call.name, parseToolInput(call.argumentsText)));
        pushAssistant(parts);
        break;
      }
      case 'tool': {
        // A tool result is user content in this API and must directly follow its call.
        const lead = takePreamble();
        pushUser(new vscode.LanguageModelToolResultPart(message.toolCallId, [new vscode.LanguageModelTextPart(message.content)]));
        if (lead !== '') pushUser(new vscode.LanguageModelTextPart(lead));
        break;
      }
    }
  }
  // Only system text (a one-shot request like a prompt hook's): it is the user message.
  if (preamble.length > 0) pushUser(new vscode.LanguageModelTextPart(takePreamble()));
  if (extraInstruction !== undefined) pushUser(new vscode.LanguageModelTextPart(extraInstruction));

  return drafts.map((draft) =>
    draft.role === 'user' ? vscode.LanguageModelChatMessage.User(draft.parts) : vscode.LanguageModelChatMessage.Assistant(draft.parts),
  );
}
