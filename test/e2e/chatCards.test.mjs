// @ts-check
/**
 * E2E of what a tool card and an answer show: a call a permission rule allowed names the rule
 * and the settings file it is written in, and fenced code in an answer is highlighted in the
 * theme's colours while Copy still copies the plain code; the list follows new cards while the
 * person is at its bottom and stays where they scrolled to otherwise.
 * Screenshots: test-results/e2e-cards-*.png.
 */
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'mocha';
import { chatFrame, chatHostFrame, sendPrompt, toolCard, waitForAssistantText, waitForIdle, waitForToolCard } from './chatHarness.mjs';
import { e2e, screenshot, waitUntil } from './harness.mjs';
import { startScenario } from './workbenchHarness.mjs';

/** @param {string} name */
async function shot(name) {
  console.log(`      screenshot: ${await screenshot(name)}`);
}

const CODE = "export function greet(name: string): string {\n  // a friendly default\n  return `Hello, ${name || 'world'}!`.repeat(2);\n}";

describe('Chat cards: who decided, highlighted code', function () {
  const localSettings = () => path.join(e2e().workspace, '.claude', 'settings.local.json');
  after(() => rmSync(localSettings(), { force: true }));

  it('a call allowed by a permission rule names the rule and its file; code in the answer is highlighted', async function () {
    writeFileSync(localSettings(), JSON.stringify({ permissions: { allow: ['Bash(echo:*)'] } }, null, 2));
    await startScenario({
      name: 'e2e: allowed by a rule, highlighted code',
      turns: [
        { text: 'Saying hello first.', toolCalls: [{ name: 'Bash', input: { command: 'echo hello from the rule', description: 'Say hello' } }] },
        { text: `Here is the function:\n\n\`\`\`ts\n${CODE}\n\`\`\`` },
      ],
    });
    await sendPrompt('Greet me');

    const card = await waitForToolCard('Bash: echo hello from the rule', 'done');
    assert.match(card.result, /hello from the rule/);
    assert.equal(card.verdict, 'Allowed by permission rule Bash(echo:*) · .claude/settings.local.json › permissions.allow[0]');
    // The rule and its file are code spans of the line.
    const spans = await card.card.locator(':scope > .tool-verdict code').allTextContents();
    assert.deepEqual(spans, ['Bash(echo:*)', '.claude/settings.local.json › permissions.allow[0]']);

    await waitForAssistantText('Here is the function:');
    await waitForIdle();
    const code = chatFrame().locator('.message.assistant pre code.language-ts').last();
    await code.waitFor({ state: 'visible' });
    const colours = await code.evaluate((el) => {
      const w = /** @type {Window} */ (el.ownerDocument.defaultView);
      const colour = (/** @type {string} */ selector) => {
        const node = el.querySelector(selector);
        return node ? w.getComputedStyle(node).color : 'missing';
      };
      return {
        plain: w.getComputedStyle(el).color,
        keyword: colour('.hljs-keyword'),
        string: colour('.hljs-string'),
        title: colour('.hljs-title'),
        comment: el.querySelector('.hljs-comment')?.textContent ?? 'missing',
      };
    });
    assert.notEqual(colours.keyword, 'missing', '`export`, `function`, `return` are keywords');
    assert.notEqual(colours.keyword, colours.plain, `keywords have their own colour (${JSON.stringify(colours)})`);
    assert.notEqual(colours.string, colours.plain, `strings have their own colour (${JSON.stringify(colours)})`);
    assert.notEqual(colours.title, colours.plain, `the function's name has its own colour (${JSON.stringify(colours)})`);
    assert.equal(colours.comment, '// a friendly default');
    // Highlighting only wraps the text: the code reads (and copies) exactly as written.
    assert.equal(await code.textContent(), `${CODE}\n`);
    await shot('e2e-cards-rule-and-code');
  });

  it('the list follows new cards while it is at the bottom, and stays where the person scrolled up to', async function () {
    writeFileSync(localSettings(), JSON.stringify({ permissions: { allow: ['Bash(echo:*)'] } }, null, 2));
    /** @param {number} from @param {number} to */
    const echoes = (from, to) =>
      Array.from({ length: to - from }, (_, i) => ({ text: `Line ${from + i}.`, toolCalls: [{ name: 'Bash', input: { command: `echo line ${from + i}` } }] }));
    await startScenario({
      name: 'e2e: scrolling',
      turns: [
        ...echoes(1, 13),
        // The demo's Read hook takes 2 s and waits while the hold file exists: time to scroll up.
        { text: 'Now the file.', toolCalls: [{ name: 'Read', input: { file_path: 'src/greet.js' } }] },
        ...echoes(13, 19),
        { text: 'All lines written.' },
      ],
    });
    const hold = path.join(e2e().hookwiseHome, 'hold-guard-secrets');
    writeFileSync(hold, 'held by the scrolling test\n');
    const list = chatFrame().locator('#messages');
    const position = () =>
      list.evaluate((el) => ({ top: el.scrollTop, fromBottom: el.scrollHeight - el.scrollTop - el.clientHeight, overflow: el.scrollHeight - el.clientHeight }));
    try {
      await sendPrompt('Write the lines');
      await toolCard('Read: src/greet.js').waitFor({ state: 'visible', timeout: 30_000 });
      const followed = await waitUntil('the list at its bottom, below twelve cards', async () => {
        const p = await position();
        return p.overflow > 200 && p.fromBottom < 5 ? p : undefined;
      });
      assert.ok(followed.top > 0);
      // The person scrolls up with the mouse wheel to read an earlier card while the agent goes on.
      const box = await chatHostFrame().boundingBox();
      assert.ok(box, 'the chat is on screen');
      await e2e().page.mouse.move(box.x + box.width / 2, box.y + box.height / 3);
      await e2e().page.mouse.wheel(0, -20_000);
      await waitUntil('the list scrolled to its top', async () => (await position()).top === 0);
    } finally {
      rmSync(hold, { force: true });
    }
    await waitForToolCard('Bash: echo line 18', 'done');
    await waitForAssistantText('All lines written.');
    await waitForIdle();
    const settled = await position();
    assert.equal(settled.top, 0, `six cards and an answer arrived below; the list stayed where the person was (${JSON.stringify(settled)})`);
    await shot('e2e-cards-scrolled-up');
  });
});
