import * as vscode from 'vscode';
import { diffTabs, type ProposedChangeView } from './proposedChangeDiff';

/** Set while an approval waits for an answer from a proposed-change diff's title bar. */
export const REVIEWING_CONTEXT_KEY = 'hookwise.reviewingProposedChange';
/** The title bar's Allow / Deny (package.json editor/title, shown on the diff of a pending review). */
export const ALLOW_CHANGE_COMMAND = 'hookwise.approval.allowChange';
export const DENY_CHANGE_COMMAND = 'hookwise.approval.denyChange';

/** The answer from the diff: `closed` = the diff was closed without one (the popup asks again). */
export type ReviewVerdict = 'allow' | 'deny' | 'closed';

type Pending = Map<string, (verdict: ReviewVerdict) => void>;

/**
 * Reviews waiting for their diff's answer, by the diff's right-side URI. Kept on the global
 * object because the extension and its host tests load separate copies of this module and
 * the title bar's command must reach the review either one started.
 */
function pending(): Pending {
  const slot = Symbol.for('hookwise.proposedChangeReviews');
  const global = globalThis as { [slot]?: Pending };
  return (global[slot] ??= new Map());
}

/**
 * Focuses the diff and waits for Allow or Deny from its title bar; `closed` when the diff
 * tab goes away unanswered, `deny` on abort. One review per diff.
 */
export async function reviewInDiff(view: ProposedChangeView, signal: AbortSignal): Promise<ReviewVerdict> {
  if (signal.aborted) return 'deny';
  const key = view.modified.toString();
  const verdict = new Promise<ReviewVerdict>((resolve) => {
    const settle = (v: ReviewVerdict): void => {
      if (pending().get(key) !== settle) return;
      pending().delete(key);
      closed.dispose();
      signal.removeEventListener('abort', onAbort);
      void setReviewing();
      resolve(v);
    };
    const onAbort = (): void => settle('deny');
    const closed = vscode.window.tabGroups.onDidChangeTabs((e) => {
      if (e.closed.length > 0 && diffTabs(view.modified).length === 0) settle('closed');
    });
    signal.addEventListener('abort', onAbort, { once: true });
    pending().set(key, settle);
  });
  await setReviewing();
  await view.reveal();
  return verdict;
}

/**
 * Answers the review of the diff `uri` (the title bar passes its editor's resource), or the
 * only one waiting when called without it (Command Palette). Returns false when none matched.
 */
export function answerReview(verdict: 'allow' | 'deny', uri?: unknown): boolean {
  const reviews = pending();
  const key = uri instanceof vscode.Uri ? uri.toString() : reviews.size === 1 ? [...reviews.keys()][0] : undefined;
  const settle = key === undefined ? undefined : reviews.get(key);
  settle?.(verdict);
  return settle !== undefined;
}

/** Registers the title bar's Allow / Deny commands. */
export function registerProposedChangeReview(): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand(ALLOW_CHANGE_COMMAND, (uri?: unknown) => answerReview('allow', uri)),
    vscode.commands.registerCommand(DENY_CHANGE_COMMAND, (uri?: unknown) => answerReview('deny', uri)),
  );
}

async function setReviewing(): Promise<void> {
  await vscode.commands.executeCommand('setContext', REVIEWING_CONTEXT_KEY, pending().size > 0);
}
