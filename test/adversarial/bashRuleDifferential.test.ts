import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { HookSource } from '../../src/configFiles/hookSource';
import { evaluatePermissionRules, parsePermissionRule, type PermissionBehavior, type PermissionRuleEntry } from '../../src/permissions/permissionRules';
import { CORPUS_ALLOW_RULES, generateBashCorpus, generateDenyEvasions } from './support/bashRuleCorpus';
import { runUnderShells } from './support/bashRuleShells';

// Differential test of Bash permission rules against real shells: every command the rules
// allow is run under dash and bash, and none may create the marker the injected command makes.

// Override to explore: BASH_RULES_SEED=7 BASH_RULES_CASES=20000 npx vitest run test/adversarial/bashRuleDifferential.test.ts
const SEED = Number(process.env.BASH_RULES_SEED ?? 0x5eed12);
const CASES = Number(process.env.BASH_RULES_CASES ?? 4000);
const SHELLS = ['dash', 'bash'];
const source: HookSource = {
  kind: 'file',
  scope: 'project',
  file: '/ws/.claude/settings.json',
  displayFile: '.claude/settings.json',
  jsonPath: 'permissions.allow',
};
const entry = (behavior: PermissionBehavior, text: string): PermissionRuleEntry => {
  const parsed = parsePermissionRule(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return { behavior, rule: parsed.rule, source };
};
const entries = CORPUS_ALLOW_RULES.map((text) => entry('allow', text));
// Deny is best effort (the README says so), but the common evasions must not get past it.
const denyEntries = [entry('allow', 'Bash'), entry('deny', 'Bash(rm:*)')];
const DENY_CASES = 2000;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hookwise-bash-rules-'));

afterAll(() => fs.rmSync(root, { recursive: true, force: true, maxRetries: 5 }));

describe('Bash rules vs real shells (differential)', () => {
  it('the issue repro is not allowed by Bash(npm test:*)', () => {
    expect(evaluatePermissionRules(entries, 'Bash', { command: 'npm test #\\\ntouch PWN' }, { projectRoot: '/ws' })).toBeUndefined();
  });

  it(`no allowed command runs the injected one (${CASES} generated cases, seed ${SEED})`, async () => {
    const evasions = generateDenyEvasions(SEED, DENY_CASES);
    const missed = evasions.filter((command) => evaluatePermissionRules(denyEntries, 'Bash', { command }, { projectRoot: '/ws' })?.behavior !== 'deny');
    const corpus = generateBashCorpus(SEED, CASES);
    const allowed = corpus.filter((command) => evaluatePermissionRules(entries, 'Bash', { command }, { projectRoot: '/ws' })?.behavior === 'allow');
    // Controls: the harness must see a marker when one is made, or this test could never fail.
    const controls = ['touch PWN', 'echo hi; touch PWN', 'npm test #\\\ntouch PWN'];
    const hits = await runUnderShells(root, [...controls, ...allowed], SHELLS, 4, AbortSignal.timeout(100_000));
    const failures: string[] = [];
    for (const shell of SHELLS) {
      const found = hits.get(shell) ?? [];
      for (let c = 0; c < controls.length; c++) expect(found, `control ${JSON.stringify(controls[c])} under ${shell}`).toContain(c);
      for (const i of found) if (i >= controls.length) failures.push(`${shell}: ${JSON.stringify(allowed[i - controls.length])}`);
    }
    console.log(
      `[adversarial] bash-rules: ${corpus.length} cases (${allowed.length} allowed, ${corpus.length - allowed.length} asked), ${failures.length} failures, ran ${allowed.length}×${SHELLS.length} shells; ` +
        `deny evasions: ${evasions.length} cases, ${missed.length} missed`,
    );
    expect(failures).toEqual([]);
    expect(missed).toEqual([]);
    // The corpus must exercise the shells, not only the lexer's caution.
    expect(allowed.length).toBeGreaterThan(corpus.length / 5);
  }, 120_000);
});
