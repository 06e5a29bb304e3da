import type * as vscode from 'vscode';
import type { LastGoodStore } from '../../hooks/config/lastGoodConfig';

const KEY = 'hookwise.lastGoodConfigFiles';
/** Most files kept (settings, agents, skills, plugin hooks files of one workspace), and most characters in all. */
const MAX_FILES = 200;
const MAX_TOTAL_CHARS = 16 * 1024 * 1024;

/**
 * The last good text of each hook config file, kept in the workspace's storage
 * (`context.workspaceState`), so a file broken while VS Code was closed still has its last good
 * version in force after a reload. The extension's storage, never a workspace file: a repository
 * cannot plant a "last good" version. Past MAX_FILES or MAX_TOTAL_CHARS the longest-unchanged copies go first.
 */
export class MementoLastGoodStore implements LastGoodStore {
  constructor(private readonly state: vscode.Memento) {}

  get(file: string): Promise<string | undefined> {
    return Promise.resolve(this.all()[file]);
  }

  async remember(file: string, text: string | undefined): Promise<void> {
    const all = this.all();
    if (all[file] === text) return;
    const { [file]: _old, ...rest } = all;
    const next: Record<string, string> = text === undefined ? rest : { ...rest, [file]: text };
    let total = Object.values(next).reduce((n, t) => n + t.length, 0);
    for (const k of Object.keys(next)) {
      if (Object.keys(next).length <= MAX_FILES && total <= MAX_TOTAL_CHARS) break;
      total -= next[k]?.length ?? 0;
      delete next[k];
    }
    await this.state.update(KEY, next);
  }

  private all(): Record<string, string> {
    const value = this.state.get<unknown>(KEY);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
  }
}
