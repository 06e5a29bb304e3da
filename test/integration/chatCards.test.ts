/**
 * The chat's cards and Hook Runs inside the real extension host, wired as the extension wires
 * them: a real Session (Playground model, the built-in tools, real files, real command hooks)
 * feeds the real ChatViewProvider, EditReview and Hook Runs tree. Stop reads "cancelled" on the
 * card, in the chat's note and in Hook Runs alike; Restore Checkpoint leaves the cards before
 * the checkpoint as they were (path, who decided, inline diff) and the context meter on the
 * last model call that is left.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { AgentEvent } from '../../src/agent/agentEvents';
import { Session } from '../../src/agent/session';
import { createBuiltinTools } from '../../src/agent/tools/builtinTools';
import { CommandHookAction } from '../../src/hooks/actions/commandHookAction';
import { HookRegistry } from '../../src/hooks/hookRegistry';
import { HookRunner } from '../../src/hooks/hookRunner';
import { PlaygroundModelClient } from '../../src/model/playgroundModelClient';
import type { PlaygroundTurn } from '../../src/model/playgroundScript';
import type { ChatEvent } from '../../src/shared/webviewProtocol';
import { ChatViewProvider } from '../../src/vscode/chat/chatViewProvider';
import { EditReview } from '../../src/vscode/chat/editReview';
import { HookRunsTreeProvider, type HookRunsNode } from '../../src/vscode/tree/hookRunsTreeProvider';
import { until } from './hostWait';

interface Harness {
  readonly dir: string;
  readonly registry: HookRegistry;
  readonly session: Session;
  readonly chat: ChatViewProvider;
  readonly review: EditReview;
  readonly tree: HookRunsTreeProvider;
  /** Shows the prompt as the chat's submit does, then runs it. */
  send(prompt: string, signal?: AbortSignal): Promise<unknown>;
  dispose(): void;
}

function harness(turns: readonly PlaygroundTurn[]): Harness {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hookwise-cards-')));
  const log = { error: () => undefined, warn: () => undefined, info: () => undefined } as unknown as vscode.LogOutputChannel;
  const chat = new ChatViewProvider(vscode.Uri.file(dir), log);
  const tree = new HookRunsTreeProvider({ throttleMs: 10 });
  const registry = new HookRegistry();
  const wired: { review?: EditReview } = {};
  const session = new Session({
    cwd: dir,
    projectDir: dir,
    transcriptDir: path.join(dir, '.transcripts'),
    model: new PlaygroundModelClient({ turns: [...turns] }, { chunkDelayMs: 0 }),
    hooks: new HookRunner(registry, { projectDir: dir, observers: [tree] }),
    tools: createBuiltinTools(),
    permissionMode: 'bypassPermissions',
    systemPrompt: 'test',
    emit: (event: AgentEvent) => {
      chat.postAgentEvent(event);
      wired.review?.observeAgentEvent(event);
      tree.observeAgentEvent(event);
    },
  });
  const review = new EditReview({ chat, session: () => session, log });
  wired.review = review;
  return {
    dir,
    registry,
    session,
    chat,
    review,
    tree,
    send: (prompt, signal = new AbortController().signal) => {
      chat.addUserPrompt(prompt);
      return session.submit(prompt, signal);
    },
    dispose: () => {
      review.dispose();
      tree.dispose();
      chat.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

type Status = Extract<ChatEvent, { type: 'toolStatus' }>;

/** Each card as the chat shows it: tool, summary (the path), its last status and who decided. */
function cards(events: readonly ChatEvent[]): { tool: string; summary: string; status: string; verdict: string | undefined }[] {
  const shown = new Map<string, { tool: string; summary: string; status: string; verdict: string | undefined }>();
  for (const e of events) {
    if (e.type === 'toolCall') shown.set(e.toolUseId, { tool: e.toolName, summary: e.summary, status: 'validating', verdict: undefined });
    const card = e.type === 'toolStatus' ? shown.get(e.toolUseId) : undefined;
    if (card && e.type === 'toolStatus') {
      card.status = e.status;
      card.verdict = (e as Status).verdict ?? card.verdict;
    }
  }
  return [...shown.values()];
}

/** Every run in the Hook Runs tree with its description, depth first. */
function runs(tree: HookRunsTreeProvider, node?: HookRunsNode): string[] {
  return tree.getChildren(node).flatMap((child) => {
    if (child.kind !== 'run') return runs(tree, child);
    const item = tree.getTreeItem(child);
    return [`${typeof item.label === 'string' ? item.label : (item.label?.label ?? '')} [${String(item.description)}]`];
  });
}

const write = (id: string, file: string, content: string): PlaygroundTurn => ({
  toolCalls: [{ id, name: 'Write', argumentsText: JSON.stringify({ file_path: file, content }) }],
});

suite('chat cards: Stop and Restore Checkpoint', () => {
  test('Stop while a hook checks a call: the card, the chat and Hook Runs all say cancelled', async () => {
    const h = harness([{ toolCalls: [{ id: 'call-stop', name: 'Bash', argumentsText: JSON.stringify({ command: 'echo never' }) }] }, { text: 'unreachable' }]);
    try {
      const started = path.join(h.dir, 'hook-started');
      h.registry.register({
        event: 'PreToolUse',
        action: new CommandHookAction(`touch '${started}'; sleep 30`),
        source: { kind: 'code', label: 'slow check' },
      });
      const stop = new AbortController();
      const turn = h.send('run it', stop.signal);
      await until('the hook is running', () => existsSync(started), 20_000);
      stop.abort();
      await turn;

      const { events } = h.chat.shown();
      assert.deepEqual(
        cards(events).map((c) => [c.tool, c.status]),
        [['Bash', 'cancelled']],
      );
      const ended = events.find((e) => e.type === 'runEnded');
      assert.equal(ended?.type === 'runEnded' ? ended.status : undefined, 'cancelled');
      h.tree.flush();
      const shownRuns = runs(h.tree);
      assert.equal(shownRuns.length, 1, shownRuns.join('\n'));
      assert.match(shownRuns[0] ?? '', /\[cancelled( · .*)?\]$/, shownRuns.join('\n'));
    } finally {
      h.dispose();
    }
  });

  test('Restore Checkpoint keeps the earlier cards with their path, who decided and diff, and the meter on the last call left', async () => {
    const h = harness([write('w-a', 'a.txt', 'first\n'), { text: 'A is written.' }, write('w-b', 'b.txt', 'second\n'), { text: 'B is written.' }]);
    // The confirmation modal is answered by the test: Restore.
    const original = vscode.window.showWarningMessage;
    (vscode.window as { showWarningMessage: unknown }).showWarningMessage = (_message: string, ...rest: unknown[]) =>
      Promise.resolve(rest.filter((r): r is string => typeof r === 'string').at(-1));
    try {
      await h.send('write a');
      const afterFirst = h.chat.shown();
      await h.send('write b');
      const second = h.session.checkpoints.list().at(-1);
      assert.ok(second);
      assert.equal(cards(h.chat.shown().events).length, 2);

      await h.review.handle({ type: 'restoreCheckpoint', checkpointId: second.id });

      assert.ok(!existsSync(path.join(h.dir, 'b.txt')), 'the second turn’s file is gone');
      assert.equal(readFileSync(path.join(h.dir, 'a.txt'), 'utf8'), 'first\n');
      const after = h.chat.shown();
      const kept = cards(after.events);
      assert.deepEqual(kept, cards(afterFirst.events), 'the first card is as it was');
      assert.equal(kept.length, 1);
      assert.equal(kept[0]?.summary.endsWith('a.txt'), true, `the card keeps its path (${kept[0]?.summary})`);
      assert.equal(kept[0]?.verdict, 'Allowed by permission mode bypassPermissions');
      assert.ok(
        after.events.some((e) => e.type === 'fileDiff' && e.toolUseId === 'w-a'),
        'the inline diff of the first card stays',
      );
      assert.ok(!after.events.some((e) => e.type === 'userPrompt' && e.text === 'write b'), 'the restored prompt is gone');
      assert.deepEqual(after.contextUsage, afterFirst.contextUsage, 'the meter shows the first turn’s last call again');
      assert.ok(after.contextUsage && after.contextUsage.usedTokens > 0);
    } finally {
      (vscode.window as { showWarningMessage: unknown }).showWarningMessage = original;
      h.dispose();
    }
  });
});
