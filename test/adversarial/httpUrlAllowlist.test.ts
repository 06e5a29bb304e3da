import { describe, expect, it } from 'vitest';
import {
  addHttpHookSettings,
  checkHttpHookUrl,
  effectiveAllowedEnvVars,
  NO_HTTP_HOOK_POLICY,
  type HttpHookPolicy,
  type HttpPolicyLayer,
} from '../../src/hooks/actions/httpHookPolicy';
import { readClaudeSettingsText } from '../../src/hooks/config/claudeSettingsReader';
import { generateUrlCases, LOOPBACK_AUTHORITIES, NAMED_AUTHORITIES, NAMES_A_RULE } from './support/httpUrlShapes';

/**
 * Issue 25 item 8, at the policy function: `allowedHttpHookUrls` is matched on the parsed URL,
 * never on its text. Generated URL shapes (user info, encoded @, backslashes, mixed case,
 * trailing dots, IPv4 spellings, IPv6, ports, a decoy of the allowed host in every other part)
 * under patterns with a `*` in every position, checked against an oracle that asks the URL
 * parser where each URL connects. httpUrlAllowlistCli.test.ts runs the same shapes end to end.
 */

const USER_FILE = '~/.claude/settings.json';
const policyOf = (patterns: readonly string[], layer: HttpPolicyLayer = 'user', file = USER_FILE): HttpHookPolicy =>
  addHttpHookSettings(NO_HTTP_HOOK_POLICY, { allowedUrls: patterns }, layer, file);

describe('adversarial: allowedHttpHookUrls at the policy function', () => {
  it('generated shapes: called exactly when the parsed scheme, host, port and path fit the pattern, never with user info', () => {
    const cases = generateUrlCases([...LOOPBACK_AUTHORITIES, ...NAMED_AUTHORITIES], 8080);
    const failures: string[] = [];
    let allowed = 0;
    for (const c of cases) {
      const verdict = checkHttpHookUrl(c.url, policyOf([c.pattern]), 'project');
      if (verdict.allowed) allowed++;
      if (verdict.allowed !== c.allowed) failures.push(`${JSON.stringify(c.url)} under ${c.pattern}: expected ${c.allowed ? 'allowed' : 'blocked'}`);
      else if (!verdict.allowed && !NAMES_A_RULE.test(verdict.reason)) failures.push(`${JSON.stringify(c.url)}: reason names no rule: ${verdict.reason}`);
    }
    console.log(`[adversarial] httpUrlAllowlist: ${cases.length} cases (${allowed} allowed), ${failures.length} failures`);
    expect(failures.slice(0, 20)).toEqual([]);
    // The generator must exercise both outcomes, or it proves nothing.
    expect(allowed).toBeGreaterThan(100);
    expect(cases.length - allowed).toBeGreaterThan(1000);
  });

  it('user info is refused with no list at all, whatever hides it', () => {
    for (const url of [
      'http://allowed.example:1@127.0.0.1/x',
      'http://u:p@allowed.example/',
      'http://@allowed.example/',
      'http://:@allowed.example/',
      'https://allowed.example%3A1@127.0.0.1/',
      'http://allowed.example\t@127.0.0.1/',
    ]) {
      const verdict = checkHttpHookUrl(url, NO_HTTP_HOOK_POLICY, 'user');
      expect(verdict, url).toEqual({ allowed: false, reason: expect.stringContaining('user info') });
    }
  });

  // Hand-written: percent-encoding (the generator leaves it out), spellings of one host, unicode, default ports, broken patterns.
  const HAND: readonly (readonly [pattern: string, url: string, allowed: boolean])[] = [
    ['http://allowed.example/hooks/*', 'http://allowed.example/hooks/%2e%2e/admin', false],
    ['http://allowed.example/hooks/*', 'http://allowed.example/hooks/.%2E/admin', false],
    ['http://allowed.example/hooks/*', 'http://allowed.example/hooks/..%2fadmin', false],
    ['http://allowed.example/hooks/*', 'http://allowed.example/hooks/..%5Cadmin', false],
    ['http://allowed.example/hooks/*', 'http://allowed.example/%68ooks/x', true],
    ['http://allowed.example/hooks/*', 'http://allowed.example/hooks/a%20b', true],
    ['http://allowed.example/a%20b', 'http://allowed.example/a b', true],
    ['http://allowed.example/a b', 'http://allowed.example/a b', false],
    ['http://allowed.example/*', 'http://%61llowed.example/x', true],
    ['http://allowed.example/*', 'http://allowed.example%2eevil.test/', false],
    ['http://allowed.*/*', 'http://allowed.example%2eevil.test/', true],
    ['http://127.0.0.1/*', 'http://2130706433/', true],
    ['http://127.0.0.1/*', 'http://0x7f.0.0.1/', true],
    ['http://127.0.0.1/*', 'http://0177.0.0.01/', true],
    ['http://127.0.0.1/*', 'http://127.0.0.2/', false],
    ['http://127.0.0.1/*', 'http://[::ffff:127.0.0.1]/', false],
    ['http://127.0.0.1/*', 'http://[::1]/', false],
    ['http://127.0.0.*/*', 'http://127.0.0.9/', true],
    ['http://127.0.0.*/*', 'http://127.0.1.9/', false],
    ['http://[::1]:*/*', 'http://[0:0:0:0:0:0:0:1]:9/x', true],
    ['http://[::1]:*/*', 'http://127.0.0.1:9/x', false],
    ['http://[::1]/*', 'http://[::1]:8080/x', false],
    ['http://bücher.example/*', 'http://xn--bcher-kva.example/x', true],
    ['http://bücher.example/*', 'HTTP://BÜCHER.example./x', true],
    ['http://bücher.example/*', 'http://bucher.example/x', false],
    ['http://allowed.example/*', 'http://\u0430llowed.example/x', false],
    ['*://allowed.example/*', 'https://allowed.example:443/x', true],
    ['*://allowed.example/*', 'http://allowed.example:443/x', false],
    ['https://allowed.example:443/*', 'https://allowed.example/x', true],
    ['http://allowed.example:8080/*', 'http://allowed.example:08080/x', true],
    ['http://allowed.example', 'http://allowed.example/', true],
    ['http://allowed.example', 'http://allowed.example/x', false],
    ['http://allowed.example/x', 'http://allowed.example/x#frag', true],
    ['http://allowed.example/x', 'http://allowed.example/x?q', false],
    // Stricter than Claude Code's text match: a * in the port does not run on into the path.
    ['http://localhost:*', 'http://localhost:8080/', true],
    ['http://localhost:*', 'http://localhost:8080/hook', false],
    // Broken patterns match nothing (a * inside a label, user info, a backslash, no scheme).
    ['http://allowed.example*', 'http://allowed.example.evil.test/', false],
    ['http://allowed.example*', 'http://allowed.example/', false],
    ['http://*allowed.example/*', 'http://evilallowed.example/', false],
    ['http://user@allowed.example/*', 'http://allowed.example/', false],
    ['http://allowed.example\\*', 'http://allowed.example/x', false],
    ['allowed.example/*', 'http://allowed.example/x', false],
    ['ftp://allowed.example/*', 'http://allowed.example/x', false],
    ['http://allowed.example:*/*', 'ftp://allowed.example/x', false],
  ];

  it('hand-written: percent-encoding, IPv4 and IPv6 spellings, unicode hosts, default ports, broken patterns', () => {
    const failures = HAND.filter(([pattern, url, allowed]) => checkHttpHookUrl(url, policyOf([pattern]), 'project').allowed !== allowed);
    expect(failures).toEqual([]);
  });

  it('layers: a hook passes every list that binds it; a lower list narrows its own layer, never adds, never blocks a higher one', () => {
    const user = addHttpHookSettings(NO_HTTP_HOOK_POLICY, { allowedUrls: ['https://hooks.example.com/*'] }, 'user', USER_FILE);
    const withProject = addHttpHookSettings(user, { allowedUrls: ['https://hooks.example.com/*', 'http://127.0.0.1:*/*'] }, 'project', '.claude/settings.json');
    // The project's extra entry adds nothing: the user's list still binds project hooks.
    expect(checkHttpHookUrl('http://127.0.0.1:9/x', withProject, 'project')).toEqual({
      allowed: false,
      reason: expect.stringContaining(`allowedHttpHookUrls in ${USER_FILE}`),
    });
    expect(checkHttpHookUrl('https://hooks.example.com/x', withProject, 'project').allowed).toBe(true);
    // A project's empty list blocks the project's hooks, not the user's.
    const projectEmpty = addHttpHookSettings(NO_HTTP_HOOK_POLICY, { allowedUrls: [] }, 'project', '.claude/settings.local.json');
    expect(checkHttpHookUrl('https://hooks.example.com/x', projectEmpty, 'user').allowed).toBe(true);
    expect(checkHttpHookUrl('https://hooks.example.com/x', projectEmpty, 'project')).toEqual({
      allowed: false,
      reason: 'allowedHttpHookUrls is empty in .claude/settings.local.json, which blocks every http hook',
    });
    // The managed list binds every hook, its own layer included.
    const managed = addHttpHookSettings(withProject, { allowedUrls: ['https://policy.example/*'] }, 'managed', 'managed policy');
    for (const layer of ['managed', 'user', 'project'] as const)
      expect(checkHttpHookUrl('https://hooks.example.com/x', managed, layer), layer).toEqual({
        allowed: false,
        reason: expect.stringContaining('allowedHttpHookUrls in managed policy'),
      });
  });

  it('httpHookAllowedEnvVars: the names every binding list allows; a lower list only removes', () => {
    let policy = addHttpHookSettings(NO_HTTP_HOOK_POLICY, { allowedEnvVars: ['A', 'B'] }, 'managed', 'managed policy');
    policy = addHttpHookSettings(policy, { allowedEnvVars: ['A', 'B', 'C'] }, 'user', USER_FILE);
    policy = addHttpHookSettings(policy, { allowedEnvVars: ['B', 'C', 'D'] }, 'project', '.claude/settings.json');
    expect(effectiveAllowedEnvVars(['A', 'B', 'C', 'D'], policy, 'managed')).toEqual(['A', 'B']);
    expect(effectiveAllowedEnvVars(['A', 'B', 'C', 'D'], policy, 'user')).toEqual(['A', 'B']);
    expect(effectiveAllowedEnvVars(['A', 'B', 'C', 'D'], policy, 'project')).toEqual(['B']);
  });

  it('an entry that is not a pattern is a warning at the entry, and it still counts as a list (it narrows)', () => {
    const text = JSON.stringify({ allowedHttpHookUrls: ['https://hooks.example.com*', 'http://u@h/*', 'https://ok.example/*'] });
    const content = readClaudeSettingsText(text, { displayFile: '.claude/settings.json' });
    expect(content.httpPolicy?.allowedUrls).toHaveLength(3);
    expect(content.diagnostics.map((d) => [d.code, d.jsonPath, d.severity])).toEqual([
      ['invalidUrlPattern', 'allowedHttpHookUrls[0]', 'warning'],
      ['invalidUrlPattern', 'allowedHttpHookUrls[1]', 'warning'],
    ]);
    expect(content.diagnostics[0]?.message).toContain('a * in the host must stand for whole labels');
  });

  it('a hostile pattern with many * cannot make the check backtrack (a project file is read on every load)', () => {
    const path = `http://h/${'*a'.repeat(40)}b`;
    const host = `http://${'*.a.'.repeat(40)}b.example/*`;
    const policy = policyOf([path, host], 'project', '.claude/settings.json');
    expect(checkHttpHookUrl(`http://h/${'a'.repeat(20_000)}`, policy, 'project').allowed).toBe(false);
    expect(checkHttpHookUrl(`http://${'a.'.repeat(120)}example/`, policy, 'project').allowed).toBe(false);
  }, 10_000);
});
