// @ts-check
/** The e2e harness's view of the Hook Runs tree: its rows, read while the live tree settles. */
import { e2e, waitUntil } from './harness.mjs';

/** The "Hook Runs" view's pane in the side bar. */
export function hookRunsView() {
  const { page } = e2e();
  return page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: 'Hook Runs' }) });
}

/**
 * Rows of the Hook Runs tree whose text (label and description) matches.
 * @param {string | RegExp} text
 */
export function treeItem(text) {
  return hookRunsView().locator('.monaco-list-row', { hasText: text });
}

/**
 * Reads one tree row: label, description, nesting level, expanded state and icon classes.
 * @param {import('playwright-core').Locator} row
 */
export async function readTreeItem(row) {
  // One evaluate, so an absent part (a row with no description) reads as '' instead of waiting.
  return row.first().evaluate((el) => ({
    label: el.querySelector('.label-name')?.textContent?.trim() ?? '',
    description: el.querySelector('.label-description')?.textContent?.trim() ?? '',
    level: Number(el.getAttribute('aria-level')),
    expanded: el.getAttribute('aria-expanded'),
    icon: el.querySelector('.custom-view-tree-node-item-icon')?.className ?? '',
  }));
}

/**
 * Reads a tree row until `check` accepts it (the live tree redraws rows while runs settle, so
 * one read can land between two renders). Fails with the rendered tree when it never does.
 * @param {import('playwright-core').Locator} row
 * @param {(item: Awaited<ReturnType<typeof readTreeItem>>) => boolean} check
 * @param {string} what
 */
export async function settledTreeItem(row, check, what, timeout = 10_000) {
  /** @type {Awaited<ReturnType<typeof readTreeItem>> | undefined} */
  let last;
  try {
    return await waitUntil(
      what,
      async () => {
        last = await readTreeItem(row);
        return check(last) ? last : undefined;
      },
      timeout,
    );
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\nlast read: ${JSON.stringify(last)}\n${await treeSnapshot()}`);
  }
}

/** The Hook Runs rows as rendered, one line each ("  label — description [icon]"), for failure messages. */
export async function treeSnapshot() {
  return hookRunsView()
    .locator('.monaco-list-row')
    .evaluateAll((rows) =>
      rows
        .map((el) => {
          const level = Number(el.getAttribute('aria-level'));
          const text = (/** @type {string} */ sel) => el.querySelector(sel)?.textContent?.trim() ?? '';
          const icon = /codicon-([\w-]+)/.exec(el.querySelector('.custom-view-tree-node-item-icon')?.className ?? '')?.[1] ?? '';
          return `${'  '.repeat(Math.max(0, level - 1))}${text('.label-name')} — ${text('.label-description')} [${icon}]`;
        })
        .join('\n'),
    );
}

/**
 * Expands a collapsed tree row (a click on a collapsible item toggles it).
 * @param {import('playwright-core').Locator} row
 */
export async function expandTreeItem(row) {
  const first = row.first();
  // A live tree re-renders rows as hooks finish; a click that lands mid-render is lost, so retry.
  for (let attempt = 0; attempt < 5; attempt++) {
    if ((await first.getAttribute('aria-expanded')) !== 'false') return;
    await first.click();
    try {
      await first.and(hookRunsView().locator('.monaco-list-row[aria-expanded="true"]')).waitFor({ timeout: 3_000 });
      return;
    } catch {
      // not expanded yet: look again and click again
    }
  }
  throw new Error(`could not expand the tree row:\n${await treeSnapshot()}`);
}
