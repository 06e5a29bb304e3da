import { skillKey } from './hookRunRecords';

/**
 * The skills each session has loaded, with when: a skill's SKILL.md `hooks:` run for the rest
 * of its session from then on, as Claude Code does from the Skill call on. Bounded by
 * sessions × skills.
 */
export class SkillActivations {
  /** `session\0skill` → when it was loaded (epoch ms). */
  private readonly since = new Map<string, number>();

  /** Turns on skill `skill` for session `sessionId` at epoch ms `at`, unless it already is. */
  activate(sessionId: string, skill: string, at: number): void {
    const key = skillKey(sessionId, skill);
    if (!this.since.has(key)) this.since.set(key, at);
  }

  /** True when `key` (see skillKey) is on: what hook selection asks. */
  has(key: string): boolean {
    return this.since.has(key);
  }

  /** The skills session `sessionId` had loaded by epoch ms `at`. */
  of(sessionId: string, at: number): ReadonlySet<string> {
    const prefix = skillKey(sessionId, '');
    const out = new Set<string>();
    for (const [key, when] of this.since) if (when <= at && key.startsWith(prefix)) out.add(key.slice(prefix.length));
    return out;
  }
}
