import MarkdownIt from 'markdown-it';
import DOMPurify from 'dompurify';
import { highlightCode } from './codeHighlight';
import type { FromWebviewMessage } from '../../src/shared/webviewProtocol';

/**
 * Markdown for assistant text: markdown-it with raw HTML off, then DOMPurify, so neither a
 * model nor a tool output can inject markup or script. Links and images can only point
 * where the CSP allows (no remote loads). Fenced code with a known language is highlighted
 * (its spans pass the sanitizer too); code blocks get Copy and Insert buttons after sanitizing.
 */
const md = new MarkdownIt({
  html: false,
  linkify: true,
  breaks: false,
  // An empty string tells markdown-it to escape the code itself.
  highlight: (code, language) => highlightCode(code, language) ?? '',
});

/** Renders `text` into `target`, replacing its content; code blocks get Copy and Insert (at Cursor) buttons. */
export function renderMarkdown(target: HTMLElement, text: string): void {
  const html = DOMPurify.sanitize(md.render(text), { USE_PROFILES: { html: true } });
  target.innerHTML = html;
  for (const pre of Array.from(target.querySelectorAll('pre'))) addCopyButton(pre);
}

function addCopyButton(pre: HTMLPreElement): void {
  const wrapper = document.createElement('div');
  wrapper.className = 'code-block';
  // A long line scrolls sideways: the keyboard must reach it too.
  pre.tabIndex = 0;
  pre.replaceWith(wrapper);
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'copy-code';
  button.textContent = 'Copy';
  button.setAttribute('aria-label', 'Copy code');
  button.dataset['action'] = 'copy-code';
  const insert = document.createElement('button');
  insert.type = 'button';
  insert.className = 'copy-code insert-code';
  insert.textContent = 'Insert';
  insert.title = 'Insert at Cursor';
  insert.setAttribute('aria-label', 'Insert code at the cursor');
  insert.dataset['action'] = 'insert-code';
  const bar = document.createElement('div');
  bar.className = 'code-actions';
  bar.append(insert, button);
  wrapper.append(bar, pre);
}

/** Renders one line of inline markdown (code spans in verdicts: `.claude/settings.json › …`). */
export function renderInlineMarkdown(target: HTMLElement, text: string): void {
  target.innerHTML = DOMPurify.sanitize(md.renderInline(text), { USE_PROFILES: { html: true } });
}

/** Copy and Insert at Cursor on the code blocks of `messages` (one listener for every block). */
export function enableCodeBlockActions(messages: HTMLElement, send: (m: FromWebviewMessage) => void, announce: (text: string) => void): void {
  messages.addEventListener('click', (e) => {
    const button = (e.target as HTMLElement).closest<HTMLButtonElement>('button[data-action="copy-code"], button[data-action="insert-code"]');
    if (!button) return;
    const code = button.closest('.code-block')?.querySelector('pre')?.textContent ?? '';
    if (button.dataset['action'] === 'insert-code') {
      send({ type: 'insertCode', text: code.replace(/\n$/, '') });
      announce('Inserted at the cursor');
      return;
    }
    send({ type: 'copyText', text: code });
    button.textContent = 'Copied';
    announce('Code copied');
    setTimeout(() => (button.textContent = 'Copy'), 1500);
  });
}
