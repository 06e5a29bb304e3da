import { seededRandom } from './seededRandom';

/**
 * Generated hook stdout cases for the hook-stdout adversarial category (docs/security.md): what a command hook might print, with what it meant, so the test can state the safe
 * outcome of each. Seeded: the same seed gives the same cases, so a failure is reproducible.
 */

/** The processRunner's default stdout cap. */
export const CAP_BYTES = 1024 * 1024;

/** One generated case. */
export interface HookStdoutCase {
  readonly id: number;
  readonly kind: string;
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  /** null: the hook died by a signal. */
  readonly exitCode: number | null;
  readonly continueOnFailure: boolean;
  /** What the JSON, if whole and readable, decides. */
  readonly intent: 'deny' | 'allow' | 'none';
  /** The deny is stated before any padding, so it survives a cut at the cap. */
  readonly denyBeforePad: boolean;
  /** The JSON (before any damage) matches Claude's output schema; false for wrong-typed fields. */
  readonly schemaValid: boolean;
  /** The hook itself printed broken text: cut short, random bytes, invalid UTF-8 or NUL inserted. */
  readonly damaged: boolean;
  /** Nested deeper than 64 levels somewhere. */
  readonly tooDeep: boolean;
  /** The JSON carries an updatedInput (possibly with unknown or deep keys). */
  readonly rewrites: boolean;
  /** Contains invalid UTF-8 or NUL bytes. */
  readonly badBytes: boolean;
}

const DEEP_MARK = '"__DEEP__"';

/** Yields `count` cases from `seed`, one at a time (over-cap cases are MiBs each: do not hold them all). */
export function* generateHookStdoutCases(count: number, seed: number): Generator<HookStdoutCase> {
  const rnd = seededRandom(seed);
  const int = (n: number): number => Math.floor(rnd() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;

  for (let id = 0; id < count; id++) {
    let intent: HookStdoutCase['intent'] = 'none';
    let denyBeforePad = true;
    let schemaValid = true;
    let tooDeep = false;
    let rewrites = false;
    let badBytes = false;
    let damaged = false;
    const specific: Record<string, unknown> = { hookEventName: 'PreToolUse' };
    const top: Record<string, unknown> = {};
    let deepLevels = 0;

    const shape = pick(['permissionDeny', 'blockDecision', 'continueFalse', 'allow', 'rewrite', 'context', 'empty', 'wrongTypes', 'plain', 'random']);
    switch (shape) {
      case 'permissionDeny':
        intent = 'deny';
        specific.permissionDecision = 'deny';
        specific.permissionDecisionReason = `policy ${id}`;
        top.hookSpecificOutput = specific;
        break;
      case 'blockDecision':
        intent = 'deny';
        top.decision = 'block';
        top.reason = `blocked ${id}`;
        break;
      case 'continueFalse':
        intent = 'deny';
        top.continue = false;
        top.stopReason = `halt ${id}`;
        break;
      case 'allow':
        intent = 'allow';
        specific.permissionDecision = 'allow';
        top.hookSpecificOutput = specific;
        break;
      case 'rewrite':
        intent = 'allow';
        rewrites = true;
        specific.permissionDecision = pick(['allow', undefined]);
        specific.updatedInput = { command: `echo rewritten ${id}`, ...(rnd() < 0.5 ? { smuggled: { key: 'x' } } : {}) };
        top.hookSpecificOutput = specific;
        break;
      case 'context':
        specific.additionalContext = `context ${id}`;
        top.hookSpecificOutput = specific;
        break;
      case 'wrongTypes':
        schemaValid = false;
        intent = pick(['deny', 'none']);
        if (intent === 'deny') specific.permissionDecision = 'deny';
        // Wrong-typed fields beside the deny: the schema check fails, so the hook failed.
        pick([
          () => (specific.permissionDecisionReason = 42),
          () => (top.continue = 'no'),
          () => (top.decision = 'maybe'),
          () => (specific.updatedInput = [1, 2]),
          () => (top.systemMessage = { a: 1 }),
        ])();
        top.hookSpecificOutput = specific;
        break;
      default:
        break;
    }

    // Modifiers: deep nesting, many keys, huge strings, padding past the cap.
    if (rnd() < 0.15 && shape !== 'plain' && shape !== 'random') {
      deepLevels = pick([20, 63, 65, 200, 5000, 20000]);
      tooDeep = deepLevels + (rewrites ? 3 : 1) > 64;
      if (rewrites) (specific.updatedInput as Record<string, unknown>).extra = '__DEEP__';
      else top.extra = '__DEEP__';
    }
    if (rnd() < 0.05) for (let k = 0; k < 10_000; k++) top[`k${k}`] = k;
    if (rnd() < 0.05 && top.systemMessage === undefined) top.systemMessage = 'm'.repeat(300_000);
    const overCap = rnd() < 0.1;
    if (overCap) {
      const pad = 'p'.repeat(CAP_BYTES + int(64 * 1024));
      if (rnd() < 0.5 && top.hookSpecificOutput === undefined) {
        // Pad placed before everything: nothing the hook decided survives the cut.
        const padded = { padding: pad, ...top };
        for (const key of Object.keys(top)) delete top[key];
        Object.assign(top, padded);
        denyBeforePad = false;
      } else if (top.hookSpecificOutput !== undefined && rnd() < 0.5) {
        // Context first, then the decision inside hookSpecificOutput: the decision is cut.
        const { hookEventName, ...rest } = specific;
        for (const key of Object.keys(specific)) delete specific[key];
        Object.assign(specific, { hookEventName, additionalContext: pad, ...rest });
        denyBeforePad = false;
      } else {
        top.padding = pad; // after the decision
      }
    }

    let text: string;
    if (shape === 'plain') text = pick(['ok', 'all good\n', '', '{ not json', 'deny', '  \n{"decision":"block"'.slice(0, 8)]);
    else if (shape === 'random') text = Buffer.from(Array.from({ length: int(200) }, () => int(256))).toString('latin1');
    else {
      text = JSON.stringify(top);
      if (deepLevels > 0) text = text.replace(DEEP_MARK, `${'['.repeat(deepLevels)}0${']'.repeat(deepLevels)}`);
    }
    let stdout = Buffer.from(text, shape === 'random' ? 'latin1' : 'utf8');
    if (shape === 'random') badBytes = damaged = true;

    // Byte-level damage: a cut the hook made itself, invalid UTF-8, NUL bytes.
    const damage = rnd();
    if (damage < 0.06 && stdout.length > 2) {
      stdout = stdout.subarray(0, 1 + int(stdout.length - 1));
      damaged = true;
    } else if (damage < 0.12 && stdout.length > 2) {
      const at = int(stdout.length);
      stdout = Buffer.concat([stdout.subarray(0, at), Buffer.from(pick([[0xff], [0xc3], [0xed, 0xa0, 0x80], [0x00], [0x00, 0x00]])), stdout.subarray(at)]);
      badBytes = damaged = true;
    }

    const exitCode = pick([0, 0, 0, 0, 0, 1, 2, 2, 3, 126, 127, 137, 255, null]);
    const stderr = rnd() < 0.05 ? Buffer.from(`reason ${'e'.repeat(CAP_BYTES + 100)}`) : Buffer.from(rnd() < 0.5 ? `stderr of ${id}` : '');
    yield {
      id,
      kind: shape,
      stdout,
      stderr,
      exitCode,
      continueOnFailure: rnd() < 0.5,
      intent,
      denyBeforePad,
      schemaValid,
      damaged,
      tooDeep,
      rewrites,
      badBytes,
    };
  }
}
