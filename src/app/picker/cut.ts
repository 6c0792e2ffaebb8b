import { cellWidth } from '../cellWidth.js';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** How many terminal columns `text` takes (wide characters count two), by the emulator's table. */
export function textWidth(text: string): number {
  return cellWidth(text);
}

/**
 * `text` cut to at most `width` columns, the cut marked with `…`. Cuts between graphemes and
 * counts wide characters (CJK, emoji) as two columns, so the result never overflows.
 */
export function cutToWidth(text: string, width: number): string {
  if (width <= 0) return '';
  if (cellWidth(text) <= width) return text;
  const room = width - 1; // the `…` takes one column
  let out = '';
  let used = 0;
  for (const { segment } of segmenter.segment(text)) {
    const w = cellWidth(segment);
    if (used + w > room) break;
    out += segment;
    used += w;
  }
  return `${out}…`;
}

/**
 * `text` in lines of at most `width` columns, broken between words (a word longer than a
 * line is cut with `…`): for a sentence that must be read whole.
 */
export function wrapCuttingLongWords(text: string, width: number): string[] {
  if (width <= 0) return [];
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line === '' ? word : `${line} ${word}`;
    if (cellWidth(next) <= width) {
      line = next;
      continue;
    }
    if (line !== '') lines.push(line);
    line = cutToWidth(word, width);
  }
  if (line !== '') lines.push(line);
  return lines;
}
