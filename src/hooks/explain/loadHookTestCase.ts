import { readBoundedTextFile } from '../../configFiles/configFileSystem';
import { parseBoundedJson } from '../../shared/boundedJson';
import { thrownMessage } from '../../shared/describeThrown';
import { hookTestCaseSchema, type HookTestCase } from './hookTestCase';

/**
 * Reads one hook test case file (size- and depth-bounded) and checks it against the schema.
 * A string result says what is wrong, naming the file and the place, e.g.
 * `/ws/.hookwise/hook-tests/a.json: expect.decision: Invalid enum value…`.
 */
export async function loadHookTestCase(file: string): Promise<HookTestCase | string> {
  let text: string | undefined;
  try {
    text = await readBoundedTextFile(file);
  } catch (error) {
    return `${file}: ${thrownMessage(error)}`;
  }
  if (text === undefined) return `${file}: no such file`;
  const read = parseBoundedJson(text);
  if (!read.ok) return `${file}: not valid JSON (${read.error})`;
  const parsed = hookTestCaseSchema.safeParse(read.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `${file}: ${issue ? `${issue.path.join('.') || '(top level)'}: ${issue.message}` : 'invalid test case'}`;
  }
  return parsed.data as HookTestCase;
}
