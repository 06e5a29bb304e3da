import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import * as vscode from 'vscode';
import { elicitationForm, parseFieldValue, type ElicitationField } from '../../mcp/mcpElicitation';

const RESPOND = 'Respond';
const DECLINE = 'Decline';

/**
 * Answers a server's `elicitation/create` in VS Code: a modal names the server and its
 * message (Respond / Decline; dismissing cancels), then one quick input per field (a pick for
 * booleans and enums, an input box checked against the field's type). Escape on any field
 * cancels. Stop (the signal) closes the open input and cancels.
 */
export async function askElicitationInVscode(server: string, params: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult> {
  const form = elicitationForm(server, params);
  if (!form.ok) return { action: 'decline' };
  const cancel = new vscode.CancellationTokenSource();
  const onAbort = (): void => cancel.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const detail = form.fields.map((f) => `• ${f.title}${f.required ? ' (required)' : ''}${f.description ? `: ${f.description}` : ''}`).join('\n');
    const choice = await vscode.window.showInformationMessage(`MCP server "${server}" asks: ${form.message}`, { modal: true, detail }, RESPOND, DECLINE);
    if (choice === DECLINE) return { action: 'decline' };
    if (choice !== RESPOND || signal.aborted) return { action: 'cancel' };
    const content: Record<string, string | number | boolean> = {};
    for (const [i, field] of form.fields.entries()) {
      const value = await askField(field, `${server}: ${field.title} (${i + 1}/${form.fields.length})`, cancel.token);
      if (value === undefined) {
        if (field.required || signal.aborted) return { action: 'cancel' };
        continue;
      }
      content[field.key] = value;
    }
    return { action: 'accept', content };
  } finally {
    signal.removeEventListener('abort', onAbort);
    cancel.dispose();
  }
}

async function askField(field: ElicitationField, title: string, token: vscode.CancellationToken): Promise<string | number | boolean | undefined> {
  const choices = field.type === 'boolean' ? ['true', 'false'] : field.options;
  if (choices) {
    const picked = await vscode.window.showQuickPick(choices, { title, placeHolder: field.description ?? field.title, ignoreFocusOut: true }, token);
    return picked === undefined ? undefined : parseFieldValue(field, picked);
  }
  const text = await vscode.window.showInputBox(
    {
      title,
      prompt: field.description ?? field.title,
      ignoreFocusOut: true,
      ...(field.defaultValue !== undefined ? { value: String(field.defaultValue) } : {}),
      validateInput: (v) =>
        v === '' && !field.required
          ? undefined
          : parseFieldValue(field, v) === undefined
            ? `Enter ${field.type === 'string' ? 'a value' : `a ${field.type}`}`
            : undefined,
    },
    token,
  );
  if (text === undefined || (text === '' && !field.required)) return undefined;
  return parseFieldValue(field, text);
}
