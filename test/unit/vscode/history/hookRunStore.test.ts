import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeSource } from '../../../../src/configFiles/hookSource';
import { HookRunStore } from '../../../../src/vscode/history/hookRunStore';
import { record } from '../../../support/hookRunFixtures';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hookwise-history-'));
  dirs.push(dir);
  return path.join(dir, 'hook-runs');
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const NOW = 1_700_000_000_000;

describe('HookRunStore', () => {
  it('gives back finished runs after a new store opens the same folder, last write winning', async () => {
    const dir = tempDir();
    const first = new HookRunStore({ dir, now: () => NOW });
    first.add(record({ runId: 'r1', status: 'running', startedAt: NOW }));
    first.add(record({ runId: 'r1', status: 'blocked', outcome: { decision: 'deny', reason: 'no' }, startedAt: NOW }));
    first.add(record({ runId: 'r2', status: 'ok', startedAt: NOW + 1 }));
    first.add(record({ runId: 'r1', status: 'blocked', outcome: { decision: 'deny', reason: 'no, really' }, startedAt: NOW }));
    first.dispose();
    const again = await new HookRunStore({ dir, now: () => NOW }).load();
    expect(again.map((r) => [r.runId, r.outcome?.reason])).toEqual([
      ['r2', undefined],
      ['r1', 'no, really'],
    ]);
  });

  it('skips a torn last line (a crash mid-write) and keeps the rest', async () => {
    const dir = tempDir();
    const store = new HookRunStore({ dir, now: () => NOW });
    store.add(record({ runId: 'ok1', status: 'ok', startedAt: NOW }));
    await store.flush();
    appendFileSync(path.join(dir, readdirSync(dir)[0] as string), '{"runId":"torn","occ');
    const next = new HookRunStore({ dir, now: () => NOW });
    next.add(record({ runId: 'ok2', status: 'ok', startedAt: NOW }));
    await next.flush();
    expect((await next.load()).map((r) => r.runId)).toEqual(['ok1', 'ok2']);
  });

  it('stays bounded: at most maxRuns, none older than maxAgeMs, old segments deleted', async () => {
    const dir = tempDir();
    let now = NOW;
    const store = new HookRunStore({ dir, maxRuns: 10, runsPerSegment: 4, maxAgeMs: 1000, now: () => now });
    for (let i = 0; i < 40; i++) store.add(record({ runId: `r${i}`, status: 'ok', startedAt: NOW + i }));
    await store.flush();
    expect((await store.load()).map((r) => r.runId)).toEqual(Array.from({ length: 10 }, (_, i) => `r${30 + i}`));
    expect(readdirSync(dir).length).toBeLessThanOrEqual(Math.ceil(10 / 4) + 2);
    now = NOW + 1035;
    expect((await store.load()).map((r) => r.runId)).toEqual(['r35', 'r36', 'r37', 'r38', 'r39']);
  });

  it('never writes the model reply an AfterInference hook saw: a redacted original does not reach the disk', async () => {
    const dir = tempDir();
    const store = new HookRunStore({ dir, now: () => NOW });
    const reply = { candidates: [{ content: { role: 'model', parts: [{ text: 'the key is sk-live-123' }] } }] };
    store.add(
      record({
        runId: 'redact',
        event: 'AfterInference',
        status: 'ok',
        startedAt: NOW,
        input: { hook_event_name: 'AfterInference', llm_response: reply },
        outcome: { llmResponse: { text: 'the key is [REDACTED]' } },
      }),
    );
    await store.flush();
    const onDisk = readdirSync(dir)
      .map((f) => readFileSync(path.join(dir, f), 'utf8'))
      .join('');
    expect(onDisk).not.toContain('sk-live-123');
    expect(onDisk).toContain('[REDACTED]');
    expect((await store.load())[0]?.input['llm_response']).toEqual({ note: expect.stringContaining('not kept in the history') });
  });

  it('caps a huge record: drops its raw output and then its input rather than the run', async () => {
    const dir = tempDir();
    const store = new HookRunStore({ dir, maxLineBytes: 2000, now: () => NOW });
    store.add(
      record({
        runId: 'big',
        status: 'blocked',
        outcome: { decision: 'deny', reason: 'too big' },
        input: { tool_input: { content: 'x'.repeat(10_000) } },
        startedAt: NOW,
      }),
    );
    await store.flush();
    const [kept] = await store.load();
    expect(kept?.outcome).toBeUndefined();
    expect(kept?.input).toMatchObject({ note: expect.stringContaining('too large') });
    expect(kept?.status).toBe('blocked');
  });

  it('clear forgets written and queued runs; later runs are kept again', async () => {
    const dir = tempDir();
    const store = new HookRunStore({ dir, now: () => NOW });
    store.add(record({ runId: 'old', status: 'ok', startedAt: NOW }));
    await store.flush();
    store.add(record({ runId: 'queued', status: 'ok', startedAt: NOW }));
    await store.clear();
    store.add(record({ runId: 'new', status: 'ok', startedAt: NOW }));
    await store.flush();
    expect((await new HookRunStore({ dir, now: () => NOW }).load()).map((r) => r.runId)).toEqual(['new']);
  });

  it('keeps the format of another agent’s hook, so a restored run is labelled as it was live', async () => {
    const dir = tempDir();
    const source = {
      kind: 'file',
      scope: 'project',
      file: '/ws/.github/hooks/guard.json',
      displayFile: '.github/hooks/guard.json',
      jsonPath: 'hooks.preToolUse[0]',
      format: 'Copilot',
    } as const;
    const store = new HookRunStore({ dir, now: () => NOW });
    store.add(record({ runId: 'copilot', status: 'blocked', outcome: { decision: 'deny', reason: 'rm is blocked' }, source, startedAt: NOW }));
    await store.flush();
    const [restored] = await new HookRunStore({ dir, now: () => NOW }).load();
    expect(restored && describeSource(restored.source)).toBe('Copilot .github/hooks/guard.json › hooks.preToolUse[0]');
  });
});
