import type { FromWebviewMessage, Notice } from '../../src/shared/webviewProtocol';

/** Shows `notice` above the input, with its action buttons (one notice at a time), or clears the bar. */
export function showNotice(bar: HTMLElement, notice: Notice | undefined, send: (m: FromWebviewMessage) => void): void {
  bar.replaceChildren();
  bar.hidden = !notice;
  if (!notice) return;
  const text = document.createElement('span');
  text.textContent = notice.text;
  bar.append(text);
  for (const action of notice.actions) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'secondary';
    button.textContent = action.label;
    button.addEventListener('click', () => send({ type: 'noticeAction', noticeId: notice.id, actionId: action.id }));
    bar.append(button);
  }
}
