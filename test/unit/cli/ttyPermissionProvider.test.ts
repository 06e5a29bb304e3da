import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { printable, TtyPermissionProvider } from '../../../src/cli/ttyPermissionProvider';
import type { PermissionRequest } from '../../../src/hooks/hookRunTypes';

/**
 * The provider's queueing, cancelling and display rules, on a stream standing in for the
 * terminal's line input (the CLI test drives the real one through a pseudo-terminal).
 */

const ruleAsk: PermissionRequest = {
  agentId: 'main',
  parentAgentId: null,
  agentType: 'main',
  sessionId: 's',
  event: 'PreToolUse',
  toolName: 'Bash',
  toolInput: { command: 'rm -rf build' },
  reason: 'Bash needs your approval',
  kind: 'rule',
  askedBy: [],
  suggestedRule: 'Bash(rm -rf:*)',
};

function terminal(): { input: PassThrough; shown: () => string; provider: TtyPermissionProvider } {
  const input = new PassThrough();
  let text = '';
  const provider = new TtyPermissionProvider({ input, write: (t) => void (text += t), close: () => input.destroy() });
  return { input, shown: () => text, provider };
}

/** Lets queued callbacks and stream events run. */
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('TtyPermissionProvider', () => {
  it('asks one question at a time: the second is shown only after the first is answered', async () => {
    const t = terminal();
    const signal = new AbortController().signal;
    const first = t.provider.requestPermission(ruleAsk, signal);
    const second = t.provider.requestPermission({ ...ruleAsk, toolInput: { command: 'ls second' } }, signal);
    await tick();
    expect(t.shown()).toContain('$ rm -rf build');
    expect(t.shown()).not.toContain('ls second');
    t.input.write('n\n');
    expect(await first).toMatchObject({ decision: 'deny', decidedBy: 'user' });
    await tick();
    expect(t.shown()).toContain('$ ls second');
    t.input.write('s\n');
    expect(await second).toMatchObject({ decision: 'allow', scope: 'session', decidedBy: 'user' });
  });

  it('an abort while asking denies at once; a queued ask aborted before its turn is never shown', async () => {
    const t = terminal();
    const run = new AbortController();
    const queued = new AbortController();
    const first = t.provider.requestPermission(ruleAsk, run.signal);
    const second = t.provider.requestPermission({ ...ruleAsk, toolInput: { command: 'ls never' } }, queued.signal);
    await tick();
    queued.abort();
    run.abort();
    expect(await first).toMatchObject({ decision: 'deny', reason: 'cancelled before the user answered' });
    expect(await second).toMatchObject({ decision: 'deny' });
    expect(t.shown()).toContain('(cancelled: denied)');
    expect(t.shown()).not.toContain('ls never');
  });

  it('end of input denies this ask and every later one without waiting', async () => {
    const t = terminal();
    const signal = new AbortController().signal;
    const first = t.provider.requestPermission(ruleAsk, signal);
    await tick();
    t.input.end();
    expect(await first).toMatchObject({ decision: 'deny', decidedBy: 'fallback' });
    expect(await t.provider.requestPermission(ruleAsk, signal)).toMatchObject({ decision: 'deny', decidedBy: 'fallback' });
  });

  it('a protected write (no rule to grant) offers only allow / deny, and "s" is not an answer there', async () => {
    const t = terminal();
    const asked = t.provider.requestPermission(
      { ...ruleAsk, toolName: 'Write', toolInput: { file_path: '.claude/settings.json' }, suggestedRule: undefined },
      new AbortController().signal,
    );
    await tick();
    t.input.write('s\n');
    await tick();
    t.input.write('y\n');
    expect(await asked).toMatchObject({ decision: 'allow', scope: 'once' });
    expect(t.shown()).toContain('Answer [y/n]: ');
    expect(t.shown()).toContain('"s" is not an answer here.');
  });

  it("shows control characters in the model's command as escapes, so it cannot redraw the terminal", async () => {
    expect(printable('echo hi\x1b[2K\rls\u202e')).toBe('echo hi\\u001b[2K\\u000dls\\u202e');
    const t = terminal();
    const asked = t.provider.requestPermission({ ...ruleAsk, toolInput: { command: 'rm -rf ~\x1b[1A\x1b[2Kls' } }, new AbortController().signal);
    await tick();
    t.input.write('n\n');
    await asked;
    expect(t.shown()).not.toContain('\x1b');
    expect(t.shown()).toContain('$ rm -rf ~\\u001b[1A\\u001b[2Kls');
  });
});
