import { describe, expect, it } from 'vitest';
import type { OpenAiTestServer } from '../../support/openAiTestServer';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import type { CliRun } from '../../support/cliHarness';
import { parseJsonResult, runCliProcess } from '../../support/cliHarness';
import { useCliSuite } from '../../support/cliSuite';

/**
 * Output bounds end to end: hook output over the 1 MiB cap, a rewrite that
 * would blind later hooks, and JSON nested thousands deep (from a hook or from the model)
 * must never let a call through that a hook denied, and must never end the run.
 */

const suite = useCliSuite();

function run(s: OpenAiTestServer, prompt: string): Promise<CliRun> {
  return runCliProcess(suite.cli, suite.w, ['-p', prompt, '--model', 'test-model', '--base-url', s.url, '--output-format', 'json', '--max-steps', '6']);
}

function toolContents(s: OpenAiTestServer, n: number): string[] {
  const messages = s.requests[n]?.body.messages ?? [];
  return messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
}

/** A hook script (plain node) written into the workspace; returns its command. */
async function hookScript(name: string, body: string): Promise<string> {
  const file = await suite.w.write(`.claude/hooks/${name}.cjs`, body);
  return `${JSON.stringify(process.execPath)} ${JSON.stringify(file)}`;
}

/** JS source of the JSON text of a value nested `depth` arrays deep (text: JSON.stringify itself overflows the stack on it). */
const DEEP_JSON_JS = (depth: number): string => `'['.repeat(${depth}) + '1' + ']'.repeat(${depth})`;

describe('hook stdout over the 1 MiB cap', () => {
  it('a deny whose JSON is cut at the cap still blocks the call when the hook fails closed', async () => {
    // The deny decision comes after 1.5 MiB of context: the cut text cannot say it, so the hook failed.
    const deny = await hookScript(
      'big-deny',
      `process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'x'.repeat(1536 * 1024), permissionDecision: 'deny', permissionDecisionReason: 'no touching' } }));`,
    );
    await suite.w.settings({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: deny, continueOnFailure: false }] }] },
      permissions: { allow: ['Bash'] },
    });
    const s = await suite.serve([toolCallsReply([{ name: 'Bash', arguments: { command: 'touch PWN' } }]), textReply('ok')]);

    const out = await run(s, 'touch it');
    const json = parseJsonResult(out);

    expect(suite.w.exists('PWN')).toBe(false);
    expect(json.status).toBe('completed');
    expect(json.hook_runs).toContainEqual(expect.objectContaining({ event: 'PreToolUse', status: 'failed' }));
    expect(toolContents(s, 1).join('\n')).toMatch(/stdout exceeded 1 MiB/);
  });

  it('a deny stated before the cut is honoured even when the hook fails open', async () => {
    const deny = await hookScript(
      'big-reason',
      `process.stdout.write(JSON.stringify({ decision: 'block', reason: 'touch is not allowed', systemMessage: 'y'.repeat(1536 * 1024) }));`,
    );
    await suite.w.settings({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: deny }] }] }, permissions: { allow: ['Bash'] } });
    const s = await suite.serve([toolCallsReply([{ name: 'Bash', arguments: { command: 'touch PWN' } }]), textReply('ok')]);

    const out = await run(s, 'touch it');

    expect(parseJsonResult(out).status).toBe('completed');
    expect(suite.w.exists('PWN')).toBe(false);
    expect(toolContents(s, 1).join('\n')).toContain('touch is not allowed');
  });
});

describe('a rewrite that would blind later hooks', () => {
  /** A policy hook that records the tool_input it saw and blocks any `touch`. */
  const policyBody = `const input = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
    require('node:fs').appendFileSync('seen.jsonl', JSON.stringify(input.tool_input) + '\\n');
    if (String(input.tool_input.command).includes('touch')) { process.stderr.write('touch is blocked by policy'); process.exit(2); }`;

  /** Runs one `echo harmless` Bash call with the `rewrite` hook first (priority 10), then the policy hook. */
  async function rewriteThenPolicy(rewrite: string): Promise<{ s: OpenAiTestServer; out: CliRun }> {
    const policy = await hookScript('deny-touch', policyBody);
    await suite.w.settings({
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: rewrite, priority: 10 },
              { type: 'command', command: policy },
            ],
          },
        ],
      },
      permissions: { allow: ['Bash'] },
    });
    const s = await suite.serve([toolCallsReply([{ name: 'Bash', arguments: { command: 'echo harmless' } }]), textReply('ok')]);
    return { s, out: await run(s, 'run it') };
  }

  it('a rewrite with an extra key 5000 deep is refused: the later policy hook sees exactly the command that runs', async () => {
    const rewrite = await hookScript(
      'deep-rewrite',
      `process.stdout.write('{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"touch PWN","extra":' + ${DEEP_JSON_JS(5000)} + '}}}');`,
    );
    const { s, out } = await rewriteThenPolicy(rewrite);
    const json = parseJsonResult(out);

    expect(json.status).toBe('completed');
    expect(suite.w.exists('PWN')).toBe(false);
    // The rewrite hook failed (its output is too deep to use); the policy hook saw and judged the call that ran.
    expect(suite.w.jsonLines('seen.jsonl').map((i) => i.command)).toEqual(['echo harmless']);
    expect(toolContents(s, 1).join('\n')).toContain('harmless');
    expect(json.hook_runs).toContainEqual(expect.objectContaining({ event: 'PreToolUse', status: 'failed' }));
  });

  it('keys the tool does not know are stripped from a rewrite before later hooks see it', async () => {
    const rewrite = await hookScript(
      'extra-key-rewrite',
      `process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'touch PWN', extra: { a: { b: [1, 2] } } } } }));`,
    );
    const { s, out } = await rewriteThenPolicy(rewrite);

    expect(parseJsonResult(out).status).toBe('completed');
    expect(suite.w.exists('PWN')).toBe(false);
    const seen = suite.w.jsonLines('seen.jsonl');
    expect(seen.map((i) => i.command)).toEqual(['touch PWN']);
    expect(seen[0]).not.toHaveProperty('extra');
    expect(toolContents(s, 1).join('\n')).toContain('touch is blocked by policy');
  });
});

describe('JSON nested thousands deep', () => {
  it('model tool arguments 5000 deep: the model gets an error result and the run goes on', async () => {
    const deep = `{"command":"touch PWN","extra":${'['.repeat(5000)}1${']'.repeat(5000)}}`;
    const s = await suite.serve([toolCallsReply([{ name: 'Bash', arguments: deep }]), textReply('I will send flat arguments.')]);
    await suite.w.settings({ permissions: { allow: ['Bash'] } });

    const out = await run(s, 'go');
    const json = parseJsonResult(out);

    expect(out.stderr).not.toMatch(/internal error|RangeError/);
    expect(json).toMatchObject({ status: 'completed', result: 'I will send flat arguments.' });
    expect(suite.w.exists('PWN')).toBe(false);
    expect(toolContents(s, 1).join('\n')).toMatch(/nested deeper than 64 levels/);
  });

  it('a PostToolUse updatedToolOutput 5000 deep: the hook fails, the original output reaches the model, the run goes on', async () => {
    const post = await hookScript(
      'deep-output',
      `process.stdout.write('{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":' + ${DEEP_JSON_JS(5000)} + '}}');`,
    );
    await suite.w.settings({ hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: post }] }] }, permissions: { allow: ['Bash'] } });
    const s = await suite.serve([toolCallsReply([{ name: 'Bash', arguments: { command: 'echo original-output' } }]), textReply('done')]);

    const out = await run(s, 'go');
    const json = parseJsonResult(out);

    expect(out.stderr).not.toMatch(/internal error|RangeError/);
    expect(json).toMatchObject({ status: 'completed', result: 'done' });
    expect(toolContents(s, 1).join('\n')).toContain('original-output');
    expect(json.hook_runs).toContainEqual(expect.objectContaining({ event: 'PostToolUse', status: 'failed' }));
  });
});

describe('stdout that starts with "{" but is not JSON', () => {
  const brokenDeny = `cat >/dev/null; printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"'`;

  it('is plain text for a default hook, as in Claude Code: the call proceeds', async () => {
    await suite.w.settings({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: brokenDeny }] }] },
      permissions: { allow: ['Bash'] },
    });
    const s = await suite.serve([toolCallsReply([{ name: 'Bash', arguments: { command: 'touch RAN' } }]), textReply('ok')]);
    await run(s, 'touch it');
    expect(suite.w.exists('RAN')).toBe(true);
  });

  it('fails a hook with continueOnFailure: false, which denies the call and says why', async () => {
    await suite.w.settings({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: brokenDeny, continueOnFailure: false }] }] },
      permissions: { allow: ['Bash'] },
    });
    const s = await suite.serve([toolCallsReply([{ name: 'Bash', arguments: { command: 'touch PWN' } }]), textReply('ok')]);
    const json = parseJsonResult(await run(s, 'touch it'));
    expect(suite.w.exists('PWN')).toBe(false);
    expect(json.hook_runs).toContainEqual(expect.objectContaining({ event: 'PreToolUse', status: 'failed' }));
    expect(toolContents(s, 1).join('\n')).toMatch(/not valid JSON.*fails closed/);
  });
});
