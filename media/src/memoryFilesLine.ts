import type { FromWebviewMessage } from '../../src/shared/webviewProtocol';

/**
 * The line under the model label naming the memory files (CLAUDE.md, rules…) the session
 * uses; each is a link that opens the file. Hidden when there are none.
 */
export function renderMemoryFiles(
  line: HTMLElement,
  files: readonly { readonly path: string; readonly label: string }[],
  send: (m: FromWebviewMessage) => void,
): void {
  line.replaceChildren();
  line.hidden = files.length === 0;
  if (files.length === 0) return;
  const title = document.createElement('span');
  title.className = 'memory-files-title';
  title.textContent = 'Memory:';
  line.append(title);
  for (const file of files) {
    const link = document.createElement('a');
    link.href = '#';
    link.className = 'memory-file';
    link.textContent = file.label;
    link.title = file.path;
    link.addEventListener('click', (e) => {
      e.preventDefault();
      send({ type: 'openMemoryFile', path: file.path });
    });
    line.append(' ', link);
  }
}
