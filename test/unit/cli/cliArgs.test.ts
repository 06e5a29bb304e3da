import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../../src/cli/cliArgs';
import type { CliArgs } from '../../../src/cli/cliArgs';
import { cliSwitchIds } from '../../../src/cli/cliHookSwitches';

function args(argv: string[], env: NodeJS.ProcessEnv = {}): CliArgs {
  const command = parseCliArgs(argv, env, '/work/project');
  if (command.kind !== 'run') throw new Error(`expected a run, got ${JSON.stringify(command)}`);
  return command.args;
}

describe('parseCliArgs', () => {
  it('has safe defaults: text output, default mode, no allowed tools, the current directory', () => {
    expect(args(['-p', 'hi'])).toEqual({
      prompt: 'hi',
      cwd: '/work/project',
      outputFormat: 'text',
      permissionMode: 'default',
      allowedTools: [],
      mcpConfigs: [],
      strictMcpConfig: false,
      strictConfig: false,
      pluginDirs: [],
    });
  });

  it('takes --disable-hook more than once; builtin.NAME is the built-in provider, the limits are refused with a reason', () => {
    expect(args(['-p', 'hi', '--disable-hook', 'builtin.compaction', '--disable-hook', 'a.json › x #0123abcd'])).toMatchObject({
      disabledHooks: ['builtin.compaction', 'a.json › x #0123abcd'],
    });
    expect(cliSwitchIds(['builtin.compaction', 'built-in compaction', 'builtin:nope', 'a.json › x #0123abcd'])).toEqual({
      ids: ['built-in compaction', 'builtin:nope', 'a.json › x #0123abcd'],
      warnings: [],
    });
    const limits = cliSwitchIds(['builtin.limits']);
    expect(limits.ids).toEqual([]);
    expect(limits.warnings).toEqual([expect.stringContaining('"built-in limits" is ignored: the step, token and time limits end a runaway agent')]);
  });

  it('takes --plugin-dir more than once', () => {
    expect(args(['-p', 'hi', '--plugin-dir', 'a', '--plugin-dir', '/b'])).toMatchObject({ pluginDirs: ['a', '/b'] });
  });

  it('takes several --mcp-config values after one flag (files or JSON strings), as Claude Code, and --strict-mcp-config', () => {
    const parsed = args(['--mcp-config', 'a.json', '{"mcpServers":{}}', 'b.json', 'the prompt', '--mcp-config', 'c.json', '--strict-mcp-config']);
    expect(parsed).toMatchObject({ prompt: 'the prompt', mcpConfigs: ['a.json', '{"mcpServers":{}}', 'b.json', 'c.json'], strictMcpConfig: true });
  });

  it('splits --allowed-tools on commas and spaces outside parentheses, across repeated flags', () => {
    expect(args(['-p', 'x', '--allowed-tools', 'Bash(npm test:*),Edit', '--allowed-tools', 'Read Bash(git log:*)']).allowedTools).toEqual([
      'Bash(npm test:*)',
      'Edit',
      'Read',
      'Bash(git log:*)',
    ]);
  });

  it('takes model, endpoint and key from the environment when no flag is given; flags win', () => {
    const env = { HOOKWISE_MODEL: 'env-model', OPENAI_BASE_URL: 'http://env/v1', OPENAI_API_KEY: 'k' };
    expect(args(['-p', 'x'], env)).toMatchObject({ model: 'env-model', baseUrl: 'http://env/v1', apiKey: 'k' });
    expect(args(['-p', 'x', '--model', 'flag-model', '--base-url', 'http://flag/v1'], env)).toMatchObject({ model: 'flag-model', baseUrl: 'http://flag/v1' });
  });

  it('reads --model playground:FILE as a playground script, not a model name', () => {
    const a = args(['-p', 'x', '--model', 'playground:demo.json']);
    expect(a.playgroundScript).toBe('demo.json');
    expect(a.model).toBeUndefined();
  });

  it('reads --permission-prompt tty | none (absent: ask at the terminal when there is one) and rejects anything else', () => {
    expect(args(['-p', 'x', '--permission-prompt', 'none']).permissionPrompt).toBe('none');
    expect(args(['-p', 'x', '--permission-prompt', 'tty']).permissionPrompt).toBe('tty');
    expect(args(['-p', 'x']).permissionPrompt).toBeUndefined();
    expect(parseCliArgs(['-p', 'x', '--permission-prompt', 'modal'], {}, '/w')).toEqual({
      kind: 'usageError',
      message: '--permission-prompt must be tty, none or auto (got "modal")',
    });
  });

  it('accepts the prompt as positional words too', () => {
    expect(args(['fix', 'the', 'bug']).prompt).toBe('fix the bug');
  });

  it('-p is a switch, as in Claude Code: the prompt may follow the other options, or be left to stdin', () => {
    expect(args(['-p', '--model', 'm', 'fix it'])).toMatchObject({ prompt: 'fix it', model: 'm' });
    expect(args(['--print', 'fix it', '--max-steps', '3'])).toMatchObject({ prompt: 'fix it', maxSteps: 3 });
    // No words: the prompt comes on stdin (main.ts says so when nothing does).
    expect(args(['-p', '--output-format', 'json']).prompt).toBe('');
  });

  it.each([
    [['-p', 'x', '--max-steps', '0'], '--max-steps must be a positive integer'],
    [['-p', 'x', '--max-steps', '2.5'], '--max-steps must be a positive integer'],
    [['-p', 'x', '--model', 'playground:'], 'needs a file'],
    [['-p', 'x', '--permission-mode', 'dontAsk'], '--permission-mode must be one of'],
    [['-p', 'x', '--context-window', '128k'], '--context-window must be a whole number of tokens'],
    [['-p', 'x', '--context-window', '500'], 'at least 1000'],
  ])('%j is a usage error that says what is wrong', (argv, message) => {
    const command = parseCliArgs(argv, {}, '/');
    expect(command.kind).toBe('usageError');
    expect(command.kind === 'usageError' ? command.message : '').toContain(message);
  });

  it("takes the model's context window from --context-window, else $HOOKWISE_CONTEXT_WINDOW; absent: none (the model's default)", () => {
    expect(args(['-p', 'x', '--context-window', '128000']).contextWindow).toBe(128_000);
    expect(args(['-p', 'x'], { HOOKWISE_CONTEXT_WINDOW: '32768' }).contextWindow).toBe(32_768);
    expect(args(['-p', 'x', '--context-window', '64000'], { HOOKWISE_CONTEXT_WINDOW: '32768' }).contextWindow).toBe(64_000);
    expect(args(['-p', 'x']).contextWindow).toBeUndefined();
  });

  it('--help and --version are commands of their own', () => {
    expect(parseCliArgs(['--help'], {}, '/').kind).toBe('help');
    expect(parseCliArgs(['--version'], {}, '/').kind).toBe('version');
  });

  it('--strict-config asks to exit 2 on a broken hook config file instead of running its last good copy', () => {
    const command = parseCliArgs(['-p', 'x', '--strict-config'], {}, '/');
    expect(command.kind === 'run' && command.args.strictConfig).toBe(true);
  });
});
