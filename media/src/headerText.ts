/* The chat header's words, free of the DOM (chatHeader.ts draws the header). */

/** Tokens as the meter shows them: 950, 1.5k, 128k. */
export function formatTokens(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(n >= 10_000 ? 0 : 1)}k` : String(n);
}

/** True when `label` says no model is chosen: the host sends '' before the model loads and "No model" when none is configured. */
export function noModel(label: string): boolean {
  return label === '' || label === 'No model';
}
