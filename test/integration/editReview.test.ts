/**
 * Reviewable edits inside the real extension host: a real Session (Playground model, the
 * built-in Write/Edit tools, real files) feeds EditReview as the extension wires it; the
 * chat is faked at its interface. Undo restores the file; a file the user changed since
 * the agent wrote it is kept as the user has it; Open Diff opens a real diff editor whose
 * left side is the checkpoint's copy.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { AgentEvent } from '../../src/agent/agentEvents';
import { Session } from '../../src/agent/session';
import { createBuiltinTools } from '../../src/agent/tools/builtinTools';
import { HookRegistry } from '../../src/hooks/hookRegistry';
import { HookRunner } from '../../src/hooks/hookRunner';
import { PlaygroundModelClient } from '../../src/model/playgroundModelClient';
import type { ChatEvent } from '../../src/shared/webviewProtocol';
import { CHECKPOINT_SCHEME, EditReview } from '../../src/vscode/chat/editReview';

interface Harness {
  readonly dir: string;
  readonly session: Session;
  readonly review: EditReview;
  readonly posted: ChatEvent[];
  readonly said: string[];
  /** What went to the input box (setDraft) and what was sent again (resubmit). */
  readonly drafts: string[];
  readonly resubmitted: string[];
  dispose(): void;
}

/** A session whose model edits `app.txt` (red → green) on the first prompt, wired to an EditReview; `more` model turns after that. */
function harness(more: readonly { text: string }[] = []): Harness {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hookwise-edits-')));
  writeFileSync(path.join(dir, 'app.txt'), 'colour = red\nsize = 1\n');
  const posted: ChatEvent[] = [];
  const said: string[] = [];
  const drafts: string[] = [];
  const resubmitted: string[] = [];
  // The session's events go to the review created just below.
  const wired: { review?: EditReview } = {};
  const model = new PlaygroundModelClient(
    {
      turns: [
        { toolCalls: [{ id: 'edit-1', name: 'Edit', argumentsText: JSON.stringify({ file_path: 'app.txt', old_string: 'red', new_string: 'green' }) }] },
        { text: 'Green now.' },
        ...more,
      ],
    },
    { chunkDelayMs: 0 },
  );
  const session = new Session({
    cwd: dir,
    projectDir: dir,
    transcriptDir: path.join(dir, '.transcripts'),
    model,
    hooks: new HookRunner(new HookRegistry(), { projectDir: dir }),
    tools: createBuiltinTools(),
    permissionMode: 'bypassPermissions',
    systemPrompt: 'test',
    emit: (event: AgentEvent) => wired.review?.observeAgentEvent(event),
  });
  const log = { error: () => undefined, warn: () => undefined, info: () => undefined } as unknown as vscode.LogOutputChannel;
  const review = new EditReview({
    chat: {
      postEditEvent: (e) => posted.push(e),
      postAgentEvent: (e) => void (e.type === 'systemMessage' && said.push(e.text)),
      addUserPrompt: () => undefined,
      resetSession: () => undefined,
      setDraft: (text) => void drafts.push(text),
      resubmit: (text) => void resubmitted.push(text),
    },
    session: () => session,
    log,
  });
  wired.review = review;
  return {
    dir,
    session,
    review,
    posted,
    said,
    drafts,
    resubmitted,
    dispose: () => {
      review.dispose();
      void session.end('other');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const summaries = (posted: readonly ChatEvent[]) => posted.flatMap((e) => (e.type === 'editSummary' ? [e] : []));

suite('Reviewable edits (EditReview in the extension host)', () => {
  test('the Edit card gets its diff, the turn a summary, and Undo puts the file back', async () => {
    const h = harness();
    try {
      await h.session.submit('make it green', new AbortController().signal);
      const file = path.join(h.dir, 'app.txt');
      assert.equal(readFileSync(file, 'utf8'), 'colour = green\nsize = 1\n');
      const diff = h.posted.find((e) => e.type === 'fileDiff');
      assert.ok(diff?.type === 'fileDiff', 'the Edit card got a diff');
      assert.deepEqual(
        diff.lines.filter((l) => l.kind !== 'context').map((l) => `${l.kind} ${l.text}`),
        ['removed colour = red', 'added colour = green'],
      );
      assert.deepEqual(h.posted[0], { type: 'checkpoint', checkpointId: 1 }, 'the prompt got its checkpoint first');
      assert.deepEqual(
        summaries(h.posted)
          .at(-1)
          ?.files.map((f) => [f.path, f.state]),
        [[file, 'pending']],
      );

      await h.review.handle({ type: 'reviewEdits', action: 'undo', checkpointId: 1, path: file });

      assert.equal(readFileSync(file, 'utf8'), 'colour = red\nsize = 1\n');
      assert.deepEqual(
        summaries(h.posted)
          .at(-1)
          ?.files.map((f) => [f.path, f.state]),
        [[file, 'undone']],
      );
      assert.match(h.said.at(-1) ?? '', /^Undo: .*app\.txt restored\.$/);
    } finally {
      h.dispose();
    }
  });

  test('Undo leaves a file the user changed meanwhile as the user has it, and says so', async () => {
    const h = harness();
    try {
      await h.session.submit('make it green', new AbortController().signal);
      const file = path.join(h.dir, 'app.txt');
      // The user edits the file in an editor and saves it.
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
      const edit = new vscode.WorkspaceEdit();
      edit.insert(doc.uri, new vscode.Position(2, 0), 'mine = yes\n');
      assert.ok(await vscode.workspace.applyEdit(edit));
      assert.ok(await doc.save());

      await h.review.handle({ type: 'reviewEdits', action: 'undo', checkpointId: 1 });

      assert.equal(readFileSync(file, 'utf8'), 'colour = green\nsize = 1\nmine = yes\n');
      const last = summaries(h.posted).at(-1)?.files[0];
      assert.equal(last?.state, 'conflict');
      assert.match(last?.note ?? '', /Undo left your version/);
      assert.match(h.said.at(-1) ?? '', /Not undone — .*app\.txt: it changed after the agent wrote it/);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      h.dispose();
    }
  });

  test("Open Diff shows the checkpoint's copy against the file on disk", async () => {
    const h = harness();
    try {
      await h.session.submit('make it green', new AbortController().signal);
      await h.review.handle({ type: 'openDiff', toolUseId: 'edit-1' });
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      assert.ok(input instanceof vscode.TabInputTextDiff, 'a diff editor is open');
      assert.equal(input.original.scheme, CHECKPOINT_SCHEME);
      assert.equal(input.modified.fsPath, path.join(h.dir, 'app.txt'));
      const before = await vscode.workspace.openTextDocument(input.original);
      assert.equal(before.getText(), 'colour = red\nsize = 1\n');
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      h.dispose();
    }
  });

  test('Retry of a prompt that changed no files cuts the conversation back to before it and sends it again, without asking', async () => {
    const h = harness([{ text: 'Blue is a colour.' }]);
    try {
      await h.session.submit('make it green', new AbortController().signal);
      await h.session.submit('what is blue?', new AbortController().signal);
      const before = h.session.messages.length;
      const second = h.session.checkpoints.list().at(-1);
      assert.ok(second && second.id !== 1);

      // No file would be restored: no modal (a modal would block this await until the test times out).
      await h.review.handle({ type: 'restoreCheckpoint', checkpointId: second.id, then: 'retry', prompt: 'what is blue?' });

      assert.deepEqual(h.resubmitted, ['what is blue?']);
      assert.deepEqual(h.drafts, []);
      assert.equal(h.session.messages.length, before - 2, 'the retried prompt and its answer are gone from the conversation');
      assert.ok(!h.session.messages.some((m) => m.content.includes('Blue is a colour.')));
      assert.equal(readFileSync(path.join(h.dir, 'app.txt'), 'utf8'), 'colour = green\nsize = 1\n', "the earlier turn's edit stays");
    } finally {
      h.dispose();
    }
  });

  test('Edit of a prompt that changed files asks first; on Restore and Edit the files go back and the prompt returns to the input', async () => {
    const h = harness();
    // The modal is answered by the test: the first showWarningMessage picks its last button.
    const original = vscode.window.showWarningMessage;
    const asked: string[] = [];
    (vscode.window as { showWarningMessage: unknown }).showWarningMessage = (message: string, ...rest: unknown[]) => {
      asked.push(message);
      const buttons = rest.filter((r): r is string => typeof r === 'string');
      return Promise.resolve(buttons.at(-1));
    };
    try {
      await h.session.submit('make it green', new AbortController().signal);
      await h.review.handle({ type: 'restoreCheckpoint', checkpointId: 1, then: 'edit', prompt: 'make it green' });

      assert.deepEqual(asked, ['Restore the files the agent changed since this prompt?']);
      assert.equal(readFileSync(path.join(h.dir, 'app.txt'), 'utf8'), 'colour = red\nsize = 1\n');
      assert.deepEqual(h.drafts, ['make it green']);
      assert.deepEqual(h.resubmitted, []);
      assert.equal(h.session.messages.filter((m) => m.role === 'user').length, 0, 'the conversation is back to before the prompt');
      assert.match(h.said.at(-1) ?? '', /^Edit: .*app\.txt restored\.$/);
    } finally {
      (vscode.window as { showWarningMessage: unknown }).showWarningMessage = original;
      h.dispose();
    }
  });
});
