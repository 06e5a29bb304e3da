/**
 * Helpers for the hook configuration integration tests: a HookConfigService wired to fakes
 * (in-memory workspace state, a recording apply, scripted trust and dialogs, an isolated
 * home directory) and a way to wait for a generation that satisfies a predicate.
 */
import { handlerBody } from '../../src/hooks/config/hookConfigSchema';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { PlaygroundModelClient } from '../../src/model/playgroundModelClient';
import { HookwiseRuntime } from '../../src/runtime/hookwiseRuntime';
import { bashHookInput } from './hostWait';
import type { AppliedConfig, TrustPolicy } from '../../src/runtime/hookwiseRuntime';
import type { HookConfig } from '../../src/hooks/config/hookConfigLoader';
import { isProjectSource } from '../../src/configFiles/hookSource';
import { HookConfigService, type HookConfigChange, type HookConfigServiceOptions } from '../../src/vscode/config/hookConfigService';
import type { ApprovalChoice, ApprovalRequest, TrustPrompts, WorkspaceTrustSource } from '../../src/vscode/config/projectHookTrust';
import { MemoryMemento } from '../support/memoryMemento';

/** What the fake apply saw, call by call. */
export interface ApplyCall {
  readonly config: HookConfig;
  readonly trust: TrustPolicy;
}

/** A service over fakes, and what it did. */
export interface ServiceHarness {
  readonly service: HookConfigService;
  readonly applyCalls: ApplyCall[];
  readonly approvalRequests: ApprovalRequest[];
  readonly untrustedNotices: number[];
  readonly declinedNotices: number[];
  readonly notJsonWarnings: string[];
  readonly state: MemoryMemento;
  /** The service's temp home directory (its `.claude` folder is the user's). */
  readonly home: string;
  dispose(): void;
}

let harnesses = 0;

/** Builds a service for the open workspace; `approve` answers the approval modal (a throwing one = the test host refusing dialogs). */
export function createHarness(options: {
  trusted: boolean;
  approve: (request: ApprovalRequest) => ApprovalChoice | Promise<ApprovalChoice>;
  confirmChange?: HookConfigServiceOptions['confirmChange'];
  /** Load the hooks installed extensions contribute (the lm-provider fixture has one); off by default so counts stay the fixture folder's. */
  extensionHooks?: boolean;
  /** Makes the runtime's apply throw while it returns true (a bug in applying must not hang reloads). */
  failApply?: () => boolean;
  /** The workspace state of an earlier harness: a window reload keeps it (approvals, last good config files). */
  state?: MemoryMemento;
  /** Workspace Trust as the service sees it; default fixed at `trusted`, never granted. */
  trust?: WorkspaceTrustSource;
}): ServiceHarness {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hookwise-home-'));
  // A name per harness: a channel created right after one of the same name was disposed can be closed with it ("Channel has been closed").
  const log = vscode.window.createOutputChannel(`Hookwise config tests ${++harnesses}`, { log: true });
  const grant = new vscode.EventEmitter<void>();
  const applyCalls: ApplyCall[] = [];
  const approvalRequests: ApprovalRequest[] = [];
  const untrustedNotices: number[] = [];
  const declinedNotices: number[] = [];
  const notJsonWarnings: string[] = [];
  const state = options.state ?? new MemoryMemento();
  let generation = 0;
  const prompts: TrustPrompts = {
    approve: async (request) => {
      approvalRequests.push(request);
      return options.approve(request);
    },
    declined: () => declinedNotices.push(Date.now()),
    untrusted: (count) => untrustedNotices.push(count),
  };
  const service = new HookConfigService({
    log,
    workspaceState: state,
    globalStorageUri: vscode.Uri.file(path.join(home, 'userData', 'User', 'globalStorage', 'hookwise.hookwise')),
    homeDir: home,
    trust: options.trust ?? { isTrusted: options.trusted, onDidGrantWorkspaceTrust: grant.event },
    prompts,
    ...(options.confirmChange ? { confirmChange: options.confirmChange } : {}),
    ...(options.extensionHooks ? {} : { extensions: () => [] }),
    notJsonWarning: async (message) => {
      notJsonWarnings.push(message);
      return false;
    },
    // Mirrors HookwiseRuntime.applyConfig's filter, so `active` is what would run.
    apply: (config, trust): AppliedConfig => {
      if (options.failApply?.()) throw new Error('apply failed (test)');
      applyCalls.push({ config, trust });
      const active = config.hooks.filter((h) => !isProjectSource(h.source) || (trust.trusted && (trust.isApproved?.(h) ?? true)));
      return { generation: ++generation, active, held: [], problems: [] };
    },
  });
  return {
    service,
    applyCalls,
    approvalRequests,
    untrustedNotices,
    declinedNotices,
    notJsonWarnings,
    state,
    home,
    dispose: () => {
      service.dispose();
      grant.dispose();
      log.dispose();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Resolves with the first generation (current or coming) for which `predicate` holds; rejects after `timeoutMs`. */
export function waitForChange(
  service: HookConfigService,
  predicate: (change: HookConfigChange) => boolean,
  timeoutMs = 10_000,
  what = 'a matching configuration',
): Promise<HookConfigChange> {
  return new Promise((resolve, reject) => {
    const now = service.current;
    if (now && predicate(now)) return resolve(now);
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
    }, timeoutMs);
    const sub = service.onDidChange((change) => {
      if (!predicate(change)) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(change);
    });
  });
}

/** Commands of the active hooks, for readable assertions. */
export function activeCommands(change: HookConfigChange | undefined): string[] {
  return (change?.applied.active ?? []).map((h) => handlerBody(h.handler));
}

/** The open fixture folder. */
export function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder is open');
  return folder.uri.fsPath;
}

/**
 * Runs a Bash PreToolUse through a real runtime holding exactly the configuration `h` last
 * applied (what the service let through: trust and approvals included); transcripts go to
 * `transcriptDir`. Returns the merged decision and reason.
 */
export async function decideBashWithLastConfig(
  h: ServiceHarness,
  command: string,
  transcriptDir: string,
  sessionId: string,
): Promise<{ decision?: string; reason?: string }> {
  const last = h.applyCalls.at(-1);
  assert.ok(last, 'a configuration was applied');
  const runtime = new HookwiseRuntime({ projectDir: workspaceRoot(), homeDir: h.home, model: new PlaygroundModelClient({ turns: [] }), transcriptDir });
  try {
    runtime.applyConfig(last.config, last.trust);
    const result = await runtime.runner.run('PreToolUse', bashHookInput(sessionId, command, `toolu_${sessionId}`), {
      signal: AbortSignal.timeout(15_000),
      cwd: workspaceRoot(),
    });
    return { ...(result.decision !== undefined ? { decision: result.decision } : {}), ...(result.reason !== undefined ? { reason: result.reason } : {}) };
  } finally {
    await runtime.dispose();
  }
}

/**
 * Settles a fresh harness: its first load and the approval of the fixture folder's own hook are
 * done, so no reload is under way when a test writes a file and only a watcher can pick it up.
 */
export async function settled(h: ServiceHarness): Promise<ServiceHarness> {
  await h.service.reload();
  await waitForChange(h.service, (c) => c.applied.active.some((x) => x.source.kind === 'file' && x.source.scope === 'project'), 15_000, 'the fixture hook');
  await h.service.idle();
  return h;
}
