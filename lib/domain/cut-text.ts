// Cutting text to a length a column or a header holds. Pure.

/**
 * `text` cut to at most `max` UTF-16 code units, never through a character: a surrogate pair (an
 * emoji, a rare CJK character) stays whole or goes, so no lone half is stored or sent (it would
 * read as U+FFFD, and the API refuses one in a request).
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}
