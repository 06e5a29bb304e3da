import { describe, expect, it } from 'vitest';
import { ModelApprovals, NO_KEY_FINGERPRINT } from '../../../../src/vscode/model/modelApprovals';
import { MemoryMemento } from '../../../support/memoryMemento';

describe('model approvals (pins of origin + key fingerprint)', () => {
  it('pins the origin for one key; the key itself is never stored', async () => {
    const globalState = new MemoryMemento();
    const approvals = new ModelApprovals({ globalState, workspaceState: new MemoryMemento() });
    const key = 'sk-very-secret-key-123';
    const fp = await approvals.fingerprint(key);
    expect(fp).toMatch(/^[0-9a-f]{32}$/);
    expect(await approvals.fingerprint(key)).toBe(fp);
    expect(await approvals.fingerprint('sk-other-key')).not.toBe(fp);
    expect(await approvals.fingerprint(undefined)).toBe(NO_KEY_FINGERPRINT);

    await approvals.approveEndpoint('https://evil.example', fp);
    expect(approvals.isEndpointApproved('https://evil.example', fp)).toBe(true);
    expect(approvals.isEndpointApproved('https://evil.example', await approvals.fingerprint('sk-other-key'))).toBe(false);
    expect(approvals.isEndpointApproved('https://evil.example:8443', fp)).toBe(false);
    expect(JSON.stringify([...globalState.values])).not.toContain(key);
  });

  it('fingerprints differ between installs (random salt), so a stored pin says nothing about the key elsewhere', async () => {
    const a = new ModelApprovals({ globalState: new MemoryMemento(), workspaceState: new MemoryMemento() });
    const b = new ModelApprovals({ globalState: new MemoryMemento(), workspaceState: new MemoryMemento() });
    expect(await a.fingerprint('sk-same')).not.toBe(await b.fingerprint('sk-same'));
  });

  it('a malformed memento counts as nothing approved', async () => {
    const globalState = new MemoryMemento();
    const workspaceState = new MemoryMemento();
    globalState.values.set('hookwise.model.approvedEndpoints', [{ origin: 'https://evil.example' }]);
    workspaceState.values.set('hookwise.model.workspaceProviderChoice', { provider: 'playground', use: 'yes' });
    const approvals = new ModelApprovals({ globalState, workspaceState });
    expect(approvals.isEndpointApproved('https://evil.example', 'undefined')).toBe(false);
    expect(approvals.providerChoice()).toBeUndefined();
    await approvals.setProviderChoice({ provider: 'playground', use: true });
    expect(approvals.providerChoice()).toEqual({ provider: 'playground', use: true });
  });
});
