/**
 * The questions asked before a workspace's model settings take effect, as native modals, and
 * the chat's problem texts while they are unanswered or declined. Asked when the person acts
 * (sends a prompt, runs "Review Workspace Model Settings…"), never on window load.
 */
import * as vscode from 'vscode';

/** A workspace model setting waiting for a person's answer. */
export type PendingApproval =
  | {
      readonly kind: 'endpoint';
      /** The parsed origin the requests would go to. */
      readonly origin: string;
      /** The workspace's base URL as written. */
      readonly url: string;
      /** The user's own base URL (or the default). */
      readonly userUrl: string;
      readonly keyFingerprint: string;
      readonly hasKey: boolean;
    }
  | { readonly kind: 'provider'; readonly workspaceProvider: string; readonly userProvider: string };

/** Asks one question; true = the person allowed it. A port, so hosts without dialogs can answer. */
export type ApprovalPrompt = (pending: PendingApproval) => Promise<boolean>;

const providerNames: Readonly<Record<string, string>> = {
  'openai-compatible': 'an OpenAI-compatible endpoint',
  'vscode-lm': 'a VS Code language model',
  playground: 'the Playground',
};

/** A provider id as words. */
export function providerName(provider: string): string {
  return providerNames[provider] ?? JSON.stringify(provider);
}

/** The id of a pending approval (the same question refused in this window is not asked again unasked). */
export function approvalId(pending: PendingApproval): string {
  return pending.kind === 'endpoint' ? `endpoint ${pending.origin} ${pending.keyFingerprint}` : `provider ${pending.workspaceProvider}`;
}

/** The button that allows, per kind. */
export function allowLabel(pending: PendingApproval): string {
  return pending.kind === 'endpoint' ? 'Allow' : `Use ${providerName(pending.workspaceProvider).replace(/^(an?|the) /, '')}`;
}

/** The button that refuses, per kind. */
export function refuseLabel(pending: PendingApproval): string {
  return pending.kind === 'endpoint' ? "Don't Send" : 'Keep My Model';
}

/** The modal's message and detail. */
export function approvalQuestion(pending: PendingApproval): { readonly message: string; readonly detail: string } {
  if (pending.kind === 'endpoint') {
    const what = pending.hasKey ? 'your model requests and your API key' : 'your model requests';
    return {
      message: `This workspace's settings send ${what} to ${pending.origin}.`,
      detail: [
        `hookwise.model.baseUrl is set to ${JSON.stringify(pending.url)} in this workspace's settings; your own is ${pending.userUrl}.`,
        `Requests carry your prompts, the files the agent reads and your memory files (CLAUDE.md)${pending.hasKey ? ', and the API key from secret storage or OPENAI_API_KEY' : ''}.`,
        'Allow only if you trust this server with them. You are asked again for another key.',
      ].join('\n\n'),
    };
  }
  return {
    message: `This workspace's settings choose ${providerName(pending.workspaceProvider)} as the agent's model, instead of yours (${providerName(pending.userProvider)}).`,
    detail: [
      `hookwise.model.provider is set to ${JSON.stringify(pending.workspaceProvider)} in this workspace's settings.`,
      pending.workspaceProvider === 'playground'
        ? 'The Playground replays a script that can come from the workspace (.hookwise/playground.json): the workspace, not a model, then decides which tools the agent calls. Tool calls still ask as usual.'
        : 'Prompts and the files the agent reads then go to that provider.',
      'Your answer is kept for this workspace; "Hookwise: Review Workspace Model Settings…" asks again.',
    ].join('\n\n'),
  };
}

/** The chat's problem text while `pending` is unanswered (`refused` false) or declined in this window. */
export function approvalProblem(pending: PendingApproval, refused: boolean): string {
  const review = 'Run "Hookwise: Review Workspace Model Settings…" (or the button below) to decide';
  if (pending.kind === 'endpoint') {
    const what = pending.hasKey ? 'model requests and your API key' : 'model requests';
    return refused
      ? `Nothing was sent: you declined sending ${what} to ${pending.origin}, where this workspace's hookwise.model.baseUrl points. ${review} again, or remove the setting from the workspace.`
      : `This workspace's hookwise.model.baseUrl sends ${what} to ${pending.origin}, which you have not approved${pending.hasKey ? ' for this key' : ''}. ${review}.`;
  }
  return `This workspace's hookwise.model.provider chooses ${providerName(pending.workspaceProvider)}, not your model (${providerName(pending.userProvider)}). ${review}.`;
}

/** The native modal: true only for the allow button (Escape and closing refuse). */
export const modalApprovalPrompt: ApprovalPrompt = async (pending) => {
  const { message, detail } = approvalQuestion(pending);
  const allow = allowLabel(pending);
  const answer = await vscode.window.showWarningMessage(message, { modal: true, detail }, allow, refuseLabel(pending));
  return answer === allow;
};
