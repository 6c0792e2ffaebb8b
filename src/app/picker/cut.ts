import stringWidth from 'string-width';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * One line of plain text from anything a user or an agent wrote: tabs and line breaks become
 * spaces, other control characters (including Esc, so no escape sequence survives) are dropped.
 */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- dropping control characters is the point
  return text.replace(/\r\n|[\r\n\t]/g, ' ').replace(/[\x00-\x1f\x7f-\x9f]/g, '');
}

/** How many terminal columns `text` takes (wide characters count two). */
export function textWidth(text: string): number {
  return stringWidth(text);
}

/**
 * `text` cut to at most `width` columns, the cut marked with `…`. Cuts between graphemes and
 * counts wide characters (CJK, emoji) as two columns, so the result never overflows.
 */
export function cutToWidth(text: string, width: number): string {
  if (width <= 0) return '';
  if (stringWidth(text) <= width) return text;
  const room = width - 1; // the `…` takes one column
  let out = '';
  let used = 0;
  for (const { segment } of segmenter.segment(text)) {
    const w = stringWidth(segment);
    if (used + w > room) break;
    out += segment;
    used += w;
  }
  return `${out}…`;
}
