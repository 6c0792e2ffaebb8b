import { eastAsianWidth } from 'get-east-asian-width';

const zeroWidth = /^[\p{Mn}\p{Me}\p{Cf}]$/u;

/**
 * How many terminal cells `text` takes: wide and fullwidth characters 2, combining marks
 * and format characters 0, controls 0, everything else 1. For the bottom row, drawn
 * before Ink or string-width are loaded (string-width's segmenter costs ~35 ms to set up).
 */
export function cellWidth(text: string): number {
  let width = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x7f) width += code >= 0x20 ? 1 : 0;
    else if (code >= 0xa0 && !zeroWidth.test(char)) width += eastAsianWidth(code);
  }
  return width;
}
