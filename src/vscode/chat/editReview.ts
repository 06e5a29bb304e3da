import * as vscode from 'vscode';
import os from 'node:os';
import type { AgentEvent } from '../../agent/agentEvents';
import type { RestoreReport } from '../../agent/checkpoints/checkpointStore';
import type { Snapshot } from '../../agent/checkpoints/fileSnapshot';
import { snapshotText } from '../../agent/checkpoints/fileSnapshot';
import type { Session } from '../../agent/session';
import { MAIN_AGENT, replayEvents } from '../../agent/sessionReplay';
import { describeThrown } from '../../shared/describeThrown';
import type { ChatEvent } from '../../shared/webviewProtocol';
import type { EditReviewRequest } from './chatRequests';
import { displayPath, editSummaryEvent, fileDiffEvent } from './editReviewEvents';
import { oneLine } from '../../shared/oneLine';

/** The chat, as edit review uses it. */
export interface EditReviewChat {
  postEditEvent(event: ChatEvent): void;
  postAgentEvent(event: AgentEvent): void;
  addUserPrompt(text: string): void;
  resetSession(): void;
  /** Cuts the shown conversation back to before the checkpoint's prompt; false when it cannot (then the review redraws it). */
  rewindTo?(checkpointId: number): boolean;
  setDraft(text: string): void;
  resubmit(text: string): void;
}

/** What edit review works with. */
export interface EditReviewDeps {
  readonly chat: EditReviewChat;
  /** The current session, if any. */
  readonly session: () => Session | undefined;
  readonly log: vscode.LogOutputChannel;
}

/** Scheme of the read-only "before" documents Open Diff shows on the left. */
export const CHECKPOINT_SCHEME = 'hookwise-checkpoint';

/**
 * Reviewable edits and checkpoints in the chat: an inline diff on every Write/Edit card,
 * a summary of the files each turn changed with Keep / Undo, Open Diff (a read-only copy of
 * the file before the change against the file now), and Restore Checkpoint on each user
 * message behind a modal that says what will change. The files' history is the session's
 * CheckpointStore; this class only shows it and forwards the user's choices.
 */
export class EditReview implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly projectDir = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir();
  private lastCheckpoint: { readonly session: Session; readonly id: number } | undefined;

  constructor(private readonly deps: EditReviewDeps) {
    this.disposables.push(
      vscode.workspace.registerTextDocumentContentProvider(CHECKPOINT_SCHEME, { provideTextDocumentContent: (uri) => this.beforeText(uri) }),
    );
  }

  /** Follows the agent: a checkpoint per prompt, a diff per file change, a summary per finished turn. */
  observeAgentEvent(event: AgentEvent): void {
    const session = this.deps.session();
    if (!session) return;
    if (event.type === 'runStarted' && event.agent.parentAgentId === null) {
      const current = session.checkpoints.current;
      if (current && (this.lastCheckpoint?.session !== session || this.lastCheckpoint.id !== current.id)) {
        this.lastCheckpoint = { session, id: current.id };
        this.deps.chat.postEditEvent({ type: 'checkpoint', checkpointId: current.id });
      }
    } else if (event.type === 'toolStatus' && event.status === 'done') {
      const change = session.checkpoints.changeOf(event.toolUseId);
      if (change) this.deps.chat.postEditEvent(fileDiffEvent(change, event.agent.agentId, this.projectDir));
    } else if (event.type === 'runEnded' && event.agent.parentAgentId === null) {
      const current = session.checkpoints.current;
      if (current) this.postSummary(session, current.id);
    }
  }

  /**
   * After a resumed conversation was redrawn: Restore Checkpoint on the prompts its saved
   * checkpoints belong to (the latest ones; older prompts may predate the checkpoints).
   */
  showResumedCheckpoints(): void {
    const session = this.deps.session();
    if (!session) return;
    const checkpoints = session.checkpoints.list();
    const prompts = replayEvents(session.messages).filter((e) => e.type === 'userPrompt').length;
    checkpoints.forEach((c, i) => {
      const userMessage = prompts - checkpoints.length + i;
      if (userMessage >= 0) this.deps.chat.postEditEvent({ type: 'checkpoint', checkpointId: c.id, userMessage });
    });
    const last = checkpoints.at(-1);
    this.lastCheckpoint = last ? { session, id: last.id } : undefined;
  }

  /** Handles a button of the review UI. */
  async handle(request: EditReviewRequest): Promise<void> {
    const session = this.deps.session();
    if (!session) return void vscode.window.showWarningMessage('Hookwise: that chat has ended; its edits can no longer be reviewed here.');
    try {
      if (request.type === 'openDiff') await this.openDiff(session, request);
      else if (request.type === 'reviewEdits') await this.review(session, request.action, request.checkpointId, request.path);
      else await this.restore(session, request);
    } catch (error) {
      this.deps.log.error(`edit review (${request.type}) failed: ${describeThrown(error)}`);
      void vscode.window.showErrorMessage(`Hookwise: ${request.type} failed: ${describeThrown(error)}`);
    }
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }

  private postSummary(session: Session, checkpointId: number): void {
    const files = session.checkpoints.files(checkpointId);
    if (files.length > 0) this.deps.chat.postEditEvent(editSummaryEvent(checkpointId, files, this.projectDir));
  }

  private async review(session: Session, action: 'keep' | 'undo', checkpointId: number, filePath?: string): Promise<void> {
    if (action === 'keep') session.checkpoints.keep(checkpointId, filePath);
    else {
      if (session.busy) return void vscode.window.showInformationMessage('Hookwise is still working: Undo once the turn has finished (or press Stop).');
      this.tell(await session.undoEdits(checkpointId, filePath), 'Undo');
    }
    this.postSummary(session, checkpointId);
  }

  /**
   * Restore Checkpoint (always confirmed: it cuts the conversation), and Edit / Retry of a
   * prompt, which cut the conversation back to before it first and ask only when files would
   * be restored. Edit puts the prompt back in the input; Retry sends it again.
   */
  private async restore(session: Session, request: Extract<EditReviewRequest, { type: 'restoreCheckpoint' }>): Promise<void> {
    const { checkpointId, then } = request;
    const verb = then === 'retry' ? 'retrying' : then === 'edit' ? 'editing' : 'restoring a checkpoint';
    if (session.busy) return void vscode.window.showInformationMessage(`Hookwise is still working: press Stop before ${verb}.`);
    const preview = session.checkpoints.preview(checkpointId);
    if (!preview) return void vscode.window.showWarningMessage('Hookwise: that checkpoint is no longer available.');
    if (then === undefined || preview.files.length > 0) {
      const files = preview.files.map((f) => {
        const what = f.action === 'delete' ? 'deleted (the agent created it)' : f.action === 'recreate' ? 'recreated' : 'restored';
        return `• ${displayPath(f.path, this.projectDir)}: ${f.unrestorable ? `cannot be restored (${f.unrestorable})` : what}`;
      });
      const afterwards =
        then === 'retry'
          ? 'and that prompt is sent again'
          : then === 'edit'
            ? 'and that prompt returns to the input box for editing'
            : 'and that prompt returns to the input box';
      const detail = [
        `The conversation goes back to before “${oneLine(preview.checkpoint.prompt, 120)}”: ${preview.turnsRemoved} prompt(s) and their replies are removed, ${afterwards}.`,
        files.length > 0 ? `Files the agent changed since then:\n${files.join('\n')}` : 'The agent changed no files since then.',
        'A file changed since the agent wrote it is left as it is.',
      ].join('\n\n');
      const action = then === 'retry' ? 'Restore and Retry' : then === 'edit' ? 'Restore and Edit' : 'Restore';
      const title = then === undefined ? 'Restore this checkpoint?' : 'Restore the files the agent changed since this prompt?';
      const pick = await vscode.window.showWarningMessage(title, { modal: true, detail }, action);
      if (pick !== action) return;
    }
    const result = await session.rewind(checkpointId);
    if (!result.ok) return void vscode.window.showWarningMessage(`Hookwise: cannot go back to that prompt: ${result.error}.`);
    // The chat keeps the cards as they were shown; a redraw from the transcript cannot (no paths, no who decided).
    if (this.deps.chat.rewindTo?.(checkpointId)) {
      const last = session.checkpoints.list().at(-1);
      this.lastCheckpoint = last ? { session, id: last.id } : undefined;
    } else this.redraw(session);
    // What the user typed (as the message shows it), else the prompt the checkpoint kept.
    const prompt = request.prompt ?? result.prompt;
    // Said before a retried prompt, so the note is not read as part of the new turn.
    if (then === undefined || preview.files.length > 0)
      this.tell(result.files, then === undefined ? 'Restore Checkpoint' : then === 'retry' ? 'Retry' : 'Edit');
    if (then === 'retry') this.deps.chat.resubmit(prompt);
    else this.deps.chat.setDraft(prompt);
  }

  /** Redraws the chat from the cut conversation, with the remaining checkpoints, summaries and diffs. */
  private redraw(session: Session): void {
    const chat = this.deps.chat;
    chat.resetSession();
    const checkpoints = session.checkpoints.list();
    const events = replayEvents(session.messages);
    // The store knows only this session's prompts (a resumed session's older ones have none): align from the end.
    let unmatched = events.filter((e) => e.type === 'userPrompt').length - checkpoints.length;
    let turn = -1;
    const summary = (): void => {
      const id = checkpoints[turn]?.id;
      if (id !== undefined) this.postSummary(session, id);
    };
    for (const event of events) {
      if (event.type === 'userPrompt') {
        summary();
        chat.addUserPrompt(event.text);
        if (unmatched-- <= 0) {
          turn++;
          const id = checkpoints[turn]?.id;
          if (id !== undefined) chat.postEditEvent({ type: 'checkpoint', checkpointId: id });
        }
        continue;
      }
      chat.postAgentEvent(event);
      if (event.type === 'toolStatus') {
        const change = session.checkpoints.changeOf(event.toolUseId);
        if (change) chat.postEditEvent(fileDiffEvent(change, MAIN_AGENT.agentId, this.projectDir));
      }
    }
    summary();
    const last = checkpoints.at(-1);
    this.lastCheckpoint = last ? { session, id: last.id } : undefined;
  }

  private async openDiff(session: Session, request: Extract<EditReviewRequest, { type: 'openDiff' }>): Promise<void> {
    const filePath = request.toolUseId ? session.checkpoints.changeOf(request.toolUseId)?.path : request.path;
    if (!filePath) return void vscode.window.showWarningMessage('Hookwise: that change is no longer available.');
    const query = request.toolUseId
      ? new URLSearchParams({ session: session.id, tool: request.toolUseId })
      : new URLSearchParams({ session: session.id, turn: String(request.checkpointId ?? 0) });
    const before = vscode.Uri.from({ scheme: CHECKPOINT_SCHEME, path: vscode.Uri.file(filePath).path, query: query.toString() });
    const label = displayPath(filePath, this.projectDir);
    await vscode.commands.executeCommand('vscode.diff', before, vscode.Uri.file(filePath), `${label} (before the agent ↔ now)`, { preview: true });
  }

  /**
   * The "before" side of Open Diff: the copy the checkpoint kept. Undefined for another
   * session's document (an ended chat's copies are gone), so no stale text is shown.
   */
  private beforeText(uri: vscode.Uri): string | undefined {
    const session = this.deps.session();
    const query = new URLSearchParams(uri.query);
    if (!session || query.get('session') !== session.id) return undefined;
    const tool = query.get('tool');
    const turn = Number(query.get('turn'));
    const snapshot: Snapshot | undefined = tool
      ? session.checkpoints.changeOf(tool)?.before
      : session.checkpoints.files(turn).find((f) => vscode.Uri.file(f.path).path === uri.path)?.before;
    if (!snapshot) return '(This change is no longer available.)';
    if (snapshot.kind === 'missing') return '';
    if (snapshot.kind === 'unavailable') return `(No copy was kept: ${snapshot.reason}.)`;
    return snapshotText(snapshot) ?? '(Binary file: no text to compare.)';
  }

  /** Says what an undo or restore could not do (conflicts, failures) in the chat and in a notification. */
  private tell(report: RestoreReport, what: string): void {
    const problems = [
      ...report.conflicts.map((c) => `${displayPath(c.path, this.projectDir)}: ${c.reason}`),
      ...report.failed.map((f) => `${displayPath(f.path, this.projectDir)}: ${f.reason}`),
    ];
    const done = report.restored.map((r) => `${displayPath(r.path, this.projectDir)} ${r.action}`);
    const text = [done.length > 0 ? `${what}: ${done.join(', ')}.` : `${what}: no file was changed.`, ...problems.map((p) => `Not undone — ${p}.`)].join('\n');
    this.deps.chat.postAgentEvent({ type: 'systemMessage', agent: MAIN_AGENT, text, source: 'Hookwise' });
    if (problems.length > 0) void vscode.window.showWarningMessage(`Hookwise: ${what} left ${problems.length} file(s) as they are: ${problems.join('; ')}`);
  }
}
