import { describe, expect, it } from 'vitest';
import { decideEndpoint, decideProvider, workspacePlaygroundAllowed, type EndpointInputs } from '../../../../src/vscode/model/workspaceModelPolicy';

const USER = 'https://api.openai.com/v1';

function endpoint(
  overrides: Partial<EndpointInputs> & { workspace?: string; user?: string; approved?: [string, string][] },
): ReturnType<typeof decideEndpoint> {
  const approved = overrides.approved ?? [];
  return decideEndpoint({
    baseUrl: { user: overrides.user ?? USER, workspace: overrides.workspace },
    trusted: overrides.trusted ?? true,
    defaultUrl: 'https://api.openai.com/v1',
    keyFingerprint: overrides.keyFingerprint ?? 'fp-key-1',
    isApproved: (origin, fp) => approved.some(([o, f]) => o === origin && f === fp),
  });
}

describe('who chooses the model endpoint', () => {
  it("the user's own value (or the default) is used without asking", () => {
    expect(endpoint({})).toEqual({ kind: 'send', url: USER, fromWorkspace: false });
    expect(endpoint({ user: 'http://localhost:11434/v1' })).toMatchObject({ kind: 'send', url: 'http://localhost:11434/v1' });
    expect(endpoint({ user: '' })).toMatchObject({ kind: 'send', url: 'https://api.openai.com/v1' });
  });

  it("a trusted workspace's other origin asks, named by its parsed origin", () => {
    expect(endpoint({ workspace: 'https://evil.example/v1' })).toEqual({
      kind: 'ask',
      url: 'https://evil.example/v1',
      origin: 'https://evil.example',
      userUrl: USER,
    });
    expect(endpoint({ workspace: 'HTTPS://EVIL.example:443/x' })).toMatchObject({ kind: 'ask', origin: 'https://evil.example' });
    expect(endpoint({ workspace: 'https://api.openai.com.evil.example/v1' })).toMatchObject({ kind: 'ask', origin: 'https://api.openai.com.evil.example' });
    expect(endpoint({ workspace: 'http://api.openai.com/v1' })).toMatchObject({ kind: 'ask' }); // scheme differs
    expect(endpoint({ workspace: 'https://api.openai.com:8443/v1' })).toMatchObject({ kind: 'ask' }); // port differs
    expect(endpoint({ workspace: '' })).toMatchObject({ kind: 'send' }); // empty = the default, the user's origin here
    expect(endpoint({ user: 'http://localhost:11434/v1', workspace: '' })).toMatchObject({ kind: 'ask', origin: 'https://api.openai.com' });
  });

  it("a trusted workspace's value with the user's origin is used (another path on the same server)", () => {
    expect(endpoint({ workspace: 'https://API.openai.com:443/v2' })).toEqual({ kind: 'send', url: 'https://API.openai.com:443/v2', fromWorkspace: true });
  });

  it('a userinfo URL is refused outright, never matched by the host it names first', () => {
    const decision = endpoint({ workspace: 'https://api.openai.com@evil.example/v1', approved: [['https://api.openai.com', 'fp-key-1']] });
    expect(decision.kind).toBe('invalid');
    expect(decision.kind === 'invalid' ? decision.message : '').toMatch(/user name or password/);
  });

  it('an approval holds for that origin and that key only', () => {
    const approved: [string, string][] = [['https://evil.example', 'fp-key-1']];
    expect(endpoint({ workspace: 'https://evil.example/v1', approved })).toMatchObject({ kind: 'send', fromWorkspace: true });
    expect(endpoint({ workspace: 'https://evil.example:444/v1', approved })).toMatchObject({ kind: 'ask' });
    expect(endpoint({ workspace: 'https://evil.example/v1', approved, keyFingerprint: 'fp-key-2' })).toMatchObject({ kind: 'ask' });
    expect(endpoint({ workspace: 'https://evil.example/v1', approved, keyFingerprint: 'none' })).toMatchObject({ kind: 'ask' });
  });

  it("an untrusted workspace's value is never used", () => {
    expect(endpoint({ workspace: 'https://evil.example/v1', trusted: false })).toEqual({ kind: 'send', url: USER, fromWorkspace: false });
  });
});

describe('who chooses the provider', () => {
  const layers = (workspace: string | undefined, user = 'openai-compatible') => ({ user, workspace });

  it("an untrusted workspace cannot pick the playground (or anything else): the user's provider is used", () => {
    expect(decideProvider(layers('playground'), false, undefined)).toEqual({ kind: 'use', provider: 'openai-compatible', ignoredWorkspaceValue: 'playground' });
    expect(decideProvider(layers('playground'), false, { provider: 'playground', use: true })).toMatchObject({ provider: 'openai-compatible' });
    expect(decideProvider(layers('vscode-lm', 'playground'), false, undefined)).toMatchObject({ provider: 'playground' });
    expect(workspacePlaygroundAllowed(false)).toBe(false);
  });

  it('a trusted workspace asks once per value; the answer is kept', () => {
    expect(decideProvider(layers('playground'), true, undefined)).toEqual({ kind: 'ask', workspaceProvider: 'playground', userProvider: 'openai-compatible' });
    expect(decideProvider(layers('playground'), true, { provider: 'playground', use: true })).toEqual({ kind: 'use', provider: 'playground' });
    expect(decideProvider(layers('playground'), true, { provider: 'playground', use: false })).toMatchObject({ provider: 'openai-compatible' });
    expect(decideProvider(layers('vscode-lm'), true, { provider: 'playground', use: true })).toMatchObject({ kind: 'ask', workspaceProvider: 'vscode-lm' });
    expect(workspacePlaygroundAllowed(true)).toBe(true);
  });

  it("a workspace value equal to the user's, or none, needs nothing", () => {
    expect(decideProvider(layers(undefined), false, undefined)).toEqual({ kind: 'use', provider: 'openai-compatible' });
    expect(decideProvider(layers('playground', 'playground'), true, undefined)).toEqual({ kind: 'use', provider: 'playground' });
  });
});
