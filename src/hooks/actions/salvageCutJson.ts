import { MAX_JSON_DEPTH } from '../../shared/boundedJson';
import { parseJsonObject } from '../../shared/jsonObject';

/**
 * The complete part of a JSON object text cut off mid-way (hook stdout past its byte cap):
 * everything up to the last value that ended before the cut, with the open objects and
 * arrays closed. `{"decision":"block","reason":"xx…` gives `{"decision":"block"}`: the pair
 * cut in the middle is dropped, never completed. Undefined when nothing usable is left, the
 * text nests deeper than {@link MAX_JSON_DEPTH}, or it is not JSON after all. Never throws.
 *
 * Only a caller that uses the result to be *stricter* may trust it (see interpretCommandResult):
 * a key cut off after the last complete one might have said anything.
 */
export function salvageCutJson(text: string): Record<string, unknown> | undefined {
  if (!text.startsWith('{')) return undefined;
  let open = '';
  let inString = false;
  // Last point where the text so far, closed with `closers`, is a whole value.
  let safeEnd = -1;
  let safeOpen = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    switch (c) {
      case '"':
        inString = true;
        break;
      case '{':
      case '[':
        open += c;
        if (open.length > MAX_JSON_DEPTH) return undefined;
        safeEnd = i + 1;
        safeOpen = open;
        break;
      case '}':
      case ']':
        open = open.slice(0, -1);
        safeEnd = i + 1;
        safeOpen = open;
        if (open === '') return parseJsonObject(text.slice(0, i + 1));
        break;
      case ',':
        // A comma follows a complete value (or pair): everything before it stands.
        safeEnd = i;
        safeOpen = open;
        break;
      default:
        break;
    }
  }
  if (safeEnd < 0) return undefined;
  let closers = '';
  for (let k = safeOpen.length - 1; k >= 0; k--) closers += safeOpen[k] === '{' ? '}' : ']';
  return parseJsonObject(text.slice(0, safeEnd) + closers);
}
