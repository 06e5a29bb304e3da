/**
 * The content a Write or Edit would leave in its file, for the approval popup's diff. Pure:
 * the caller reads the current text. Returns undefined when the tool is not a file edit or
 * the edit would not apply (the tool itself reports that error later).
 */
export function proposedContent(
  toolName: string | undefined,
  input: Readonly<Record<string, unknown>> | undefined,
  current: string | undefined,
): string | undefined {
  if (!input) return undefined;
  if (toolName === 'Write') return typeof input['content'] === 'string' ? input['content'] : undefined;
  if (toolName !== 'Edit') return undefined;
  const oldString = input['old_string'];
  const newString = input['new_string'];
  if (typeof oldString !== 'string' || typeof newString !== 'string') return undefined;
  if (oldString === '') return current === undefined || current === '' ? newString : undefined;
  if (current === undefined || !current.includes(oldString)) return undefined;
  return input['replace_all'] === true ? current.split(oldString).join(newString) : current.replace(oldString, () => newString);
}

/** The file a Write/Edit targets, if the input names one. */
export function proposedFile(toolName: string | undefined, input: Readonly<Record<string, unknown>> | undefined): string | undefined {
  if ((toolName !== 'Write' && toolName !== 'Edit') || !input) return undefined;
  const file = input['file_path'];
  return typeof file === 'string' && file !== '' ? file : undefined;
}
