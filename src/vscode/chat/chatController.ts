import * as vscode from 'vscode';
import { realpathSync } from 'node:fs';
import os from 'node:os';
import type { AgentEvent } from '../../agent/agentEvents';
import type { HookRunObserver } from '../../hooks/hookRunTypes';
import type { AgentController } from '../agentController';
import { memoryFileItems, slashCommandItems } from './chatCommands';
import { ChatPersistence } from './chatPersistence';
import type { EditReview } from './editReview';
import { ChatViewProvider } from './chatViewProvider';
import { TerminalOutputRecorder } from './terminalOutput';
import { ToolHookStatus } from './toolHookStatus';

/** Registers the chat view (and the terminal output recorder its Add Context… reads); owned by `context.subscriptions`. */
export function registerChatView(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): ChatViewProvider {
  const terminals = new TerminalOutputRecorder();
  const chat = new ChatViewProvider(context.extensionUri, log, terminals);
  context.subscriptions.push(
    terminals,
    chat,
    vscode.window.registerWebviewViewProvider(ChatViewProvider.viewId, chat, { webviewOptions: { retainContextWhenHidden: true } }),
  );
  return chat;
}

/**
 * The chat wired to the agent: what the user does in the chat (send, stop, new chat, history,
 * resume, model setup) goes to the AgentController, and what the agent does (events, busy
 * state, model label, hook status messages) shows in the chat. Also the chat's commands.
 * The controller is read lazily: it is created after the chat, with this object's callbacks.
 */
export class ChatController implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[];
  /** A hook's statusMessage on its tool card while it runs (the status bar shows it too). */
  readonly hookStatus: HookRunObserver;
  /** The display record beside each transcript, and the chat reopened after a reload. */
  private readonly persistence: ChatPersistence;

  /**
   * `storageDir` (the workspace's storage folder) remembers the open chat across window reloads;
   * `log` gets record problems; `completeTourSteps` marks the walkthrough steps an event completes.
   */
  constructor(
    private readonly chat: ChatViewProvider,
    private readonly edits: EditReview,
    private readonly controller: () => AgentController,
    storageDir: string | undefined,
    log: vscode.LogOutputChannel,
    private readonly completeTourSteps: (event: string) => Promise<void> = () => Promise.resolve(),
  ) {
    this.persistence = new ChatPersistence({
      chat,
      session: () => controller().sessions.current,
      resumeSession: (id, options) => controller().resumeSession(id, options),
      showResumedCheckpoints: () => edits.showResumedCheckpoints(),
      storageDir,
      log,
    });
    this.hookStatus = new ToolHookStatus((update) => chat.postHookStatus(update));
    // Attachments obey the Read deny/ask rules the agent's Read tool obeys (deny and ask rules apply in any workspace trust).
    chat.setReadPolicy((file) => {
      let real: string | undefined;
      try {
        real = realpathSync(file);
      } catch {
        // missing: the rules see the path as given
      }
      const root = controller().projectDir;
      return controller().runtime.permissionRules(root, true).readDeniedBy(file, real, root);
    });
    chat.setCommandSource(() => slashCommandItems(controller().projectDir, os.homedir()));
    this.disposables = [...this.chatEvents(), ...this.commands()];
  }

  /** Shows one agent event in the chat. */
  showAgentEvent(event: AgentEvent): void {
    this.chat.postAgentEvent(event);
  }

  /** Send becomes Stop while the agent works. */
  setBusy(busy: boolean): void {
    this.chat.setBusy(busy);
    this.persistence.setBusy(busy);
  }

  /** Once the agent side exists: reopens the chat that was open before the window reloaded. */
  async restoreOpenChat(): Promise<void> {
    await this.persistence.restoreOpenChat();
    this.showMemory();
  }

  /** The model's name in the chat's header. */
  setModelLabel(label: string): void {
    this.chat.setModelLabel(label);
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    this.persistence.dispose();
  }

  private chatEvents(): vscode.Disposable[] {
    const { chat } = this;
    return [
      chat.onDidSubmit(async ({ prompt, context: attachments, files }) => {
        if (!(await this.controller().submit(prompt, attachments, files))) await this.offerSetup();
        this.showMemory();
      }),
      chat.onDidRequestModelPick(() => vscode.commands.executeCommand('hookwise.selectModel')),
      chat.onDidStop(() => this.controller().stop()),
      chat.onDidRequestNewChat(() => this.newChat()),
      chat.onDidRequestHistory(() => chat.showHistory(this.controller().listSessions())),
      chat.onDidResumeSession(async (id) => {
        await this.persistence.resume(id);
        this.showMemory();
      }),
      chat.onDidRequestSetup(() => this.offerSetup()),
    ];
  }

  private commands(): vscode.Disposable[] {
    const { chat } = this;
    return [
      vscode.commands.registerCommand('hookwise.reviewWorkspaceModel', () => this.controller().reviewWorkspaceModel()),
      vscode.commands.registerCommand('hookwise.openChat', async () => {
        await chat.reveal();
        await this.completeTourSteps('onCommand:hookwise.openChat');
      }),
      vscode.commands.registerCommand('hookwise.openChatInEditor', () => chat.openInEditor()),
      vscode.commands.registerCommand('hookwise.addSelectionToChat', () => chat.addSelectionToChat()),
      vscode.commands.registerCommand('hookwise.addContext', () => chat.pickContext()),
      vscode.commands.registerCommand('hookwise.stop', () => this.controller().stop()),
      vscode.commands.registerCommand('hookwise.newChat', () => this.newChat()),
      vscode.commands.registerCommand('hookwise.compact', async () => void vscode.window.showInformationMessage(await this.controller().compact())),
    ];
  }

  /** New Chat: the session ends, the chat empties, and a reload no longer reopens it. */
  private async newChat(): Promise<void> {
    this.persistence.forget();
    await this.controller().newSession();
    this.chat.resetSession();
    this.showMemory();
  }

  /** The memory files of the current session, as links under the model label. */
  private showMemory(): void {
    const controller = this.controller();
    this.chat.setMemoryFiles(memoryFileItems(controller.sessions.current?.memory, controller.projectDir, os.homedir()));
  }

  /** No model to run the prompt: the chat offers the ways to get one. */
  private async offerSetup(): Promise<void> {
    const { chat } = this;
    const controller = this.controller();
    const pick = await chat.showNotice(controller.model.configurationProblem, [
      // A workspace model setting waiting for an answer: review it first.
      ...(controller.model.pendingApproval ? [{ id: 'review', label: 'Review Workspace Model…' }] : []),
      { id: 'playground', label: 'Use Playground' },
      { id: 'configure', label: 'Configure Model' },
      { id: 'apiKey', label: 'Set API Key' },
    ]);
    if (pick === 'playground') {
      await vscode.workspace.getConfiguration('hookwise.model').update('provider', 'playground', vscode.ConfigurationTarget.Global);
      await controller.reloadModel();
      chat.clearNotice();
    } else if (pick === 'review') {
      if (await controller.reviewWorkspaceModel()) chat.clearNotice();
    } else if (pick === 'configure') await vscode.commands.executeCommand('hookwise.selectModel');
    else if (pick === 'apiKey') await vscode.commands.executeCommand('hookwise.setApiKey');
  }
}
