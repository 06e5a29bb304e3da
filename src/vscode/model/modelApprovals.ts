/**
 * What a person approved about a workspace's model settings, kept by the extension (never in
 * a file the workspace can write):
 * - endpoints: origin + a fingerprint of the API key (HMAC-SHA-256 under a random per-install
 *   salt; never the key) in `globalState`, so a changed key asks again;
 * - the provider: this workspace's provider value and the answer, in `workspaceState`.
 */
import type * as vscode from 'vscode';
import { createHmac, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { ProviderChoice } from './workspaceModelPolicy';

const ENDPOINTS_KEY = 'hookwise.model.approvedEndpoints';
const SALT_KEY = 'hookwise.model.keyFingerprintSalt';
const PROVIDER_KEY = 'hookwise.model.workspaceProviderChoice';
/** Oldest approvals drop out past this many (a bound on what a memento holds). */
const MAX_ENDPOINTS = 100;

const endpointsSchema = z.array(z.strictObject({ origin: z.string(), key: z.string(), at: z.number() }));
const providerChoiceSchema = z.strictObject({ provider: z.string(), use: z.boolean() });

/** The fingerprint of "no key": approving an endpoint without a key does not approve it for a key set later. */
export const NO_KEY_FINGERPRINT = 'none';

/** Approvals of workspace model settings, over the extension's mementos. */
export class ModelApprovals {
  constructor(private readonly state: { readonly globalState: vscode.Memento; readonly workspaceState: vscode.Memento }) {}

  /** A fingerprint of `key` that identifies it without revealing it (`'none'` without a key). */
  async fingerprint(key: string | undefined): Promise<string> {
    if (key === undefined || key === '') return NO_KEY_FINGERPRINT;
    let salt = this.state.globalState.get<unknown>(SALT_KEY);
    if (typeof salt !== 'string' || salt.length < 32) {
      salt = randomBytes(32).toString('hex');
      await this.state.globalState.update(SALT_KEY, salt);
    }
    return createHmac('sha256', salt as string)
      .update(key)
      .digest('hex')
      .slice(0, 32);
  }

  /** True when a person approved sending requests with this key (fingerprint) to `origin`. */
  isEndpointApproved(origin: string, keyFingerprint: string): boolean {
    return this.endpoints().some((e) => e.origin === origin && e.key === keyFingerprint);
  }

  /** Pins `origin` for this key. */
  async approveEndpoint(origin: string, keyFingerprint: string): Promise<void> {
    const kept = this.endpoints().filter((e) => !(e.origin === origin && e.key === keyFingerprint));
    await this.state.globalState.update(ENDPOINTS_KEY, [...kept, { origin, key: keyFingerprint, at: Date.now() }].slice(-MAX_ENDPOINTS));
  }

  /** This workspace's answer about its provider value, if any. */
  providerChoice(): ProviderChoice | undefined {
    const parsed = providerChoiceSchema.safeParse(this.state.workspaceState.get<unknown>(PROVIDER_KEY));
    return parsed.success ? parsed.data : undefined;
  }

  /** Records (or, with undefined, forgets) this workspace's answer about its provider. */
  async setProviderChoice(choice: ProviderChoice | undefined): Promise<void> {
    await this.state.workspaceState.update(PROVIDER_KEY, choice);
  }

  private endpoints(): z.infer<typeof endpointsSchema> {
    const parsed = endpointsSchema.safeParse(this.state.globalState.get<unknown>(ENDPOINTS_KEY));
    return parsed.success ? parsed.data : [];
  }
}
