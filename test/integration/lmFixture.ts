/**
 * The control API of the fixture extension test/fixtures/lmProvider (scripted vscode.lm
 * models and a tool), shared by the lm*.test.ts suites.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { resolveVscodeLmModelClient } from '../../src/vscode/model/vscodeLmModelClient';
import type { VscodeLmModelClient } from '../../src/vscode/model/vscodeLmModelClient';

/** What the fixture's `activate` returns (test/fixtures/lmProvider/extension.js). */
export interface LmFixture {
  readonly requests: {
    model: string;
    messages: { role: 'user' | 'assistant'; parts: { type: string; value?: string; callId?: string; name?: string; input?: unknown; content?: string[] }[] }[];
    tools: string[];
  }[];
  readonly cancellations: number;
  readonly toolInvocations: unknown[];
  readonly toolCancellations: number;
  setScript(turns: unknown[][]): void;
  setModels(models: { id: string; name: string; family?: string }[]): void;
  reset(): void;
}

/** The fixture's control API (activates it). */
export async function lmFixture(): Promise<LmFixture> {
  const ext = vscode.extensions.getExtension<LmFixture>('hookwise-test.lm-provider');
  assert.ok(ext, 'the runner loads test/fixtures/lmProvider beside Hookwise');
  return ext.activate();
}

/** The fixture's default model as a client of the port. */
export async function scriptedClient(): Promise<VscodeLmModelClient> {
  const resolved = await resolveVscodeLmModelClient('scripted');
  assert.ok(resolved.ok, resolved.ok ? '' : resolved.problem);
  return resolved.client;
}
