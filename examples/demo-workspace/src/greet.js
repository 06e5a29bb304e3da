/**
 * Greets someone by name, politely.
 * @param {string} name
 * @returns {string}
 */
export function greet(name) {
  const who = name.trim() || 'world';
  return `Hello, ${who}!`;
}
