/** Alternatives as a sentence writes them: `a, b or c`. */
export function listInWords(items: readonly string[]): string {
  if (items.length < 2) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}
