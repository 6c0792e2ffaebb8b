import { cutToWidth, textWidth } from './picker/cut.js';

/** `text` cut into pieces of at most `width` columns, between graphemes. */
function hardBreak(text: string, width: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (textWidth(rest) > width) {
    const piece = cutToWidth(rest, width + 1).slice(0, -1) || Array.from(rest)[0] || '';
    pieces.push(piece);
    rest = rest.slice(piece.length);
  }
  return [...pieces, rest];
}

/**
 * `text` on as many lines of at most `width` columns as it needs: broken at spaces (the
 * spaces at a break dropped, runs of spaces inside a line kept, so aligned columns stay
 * aligned), a word longer than a line broken where the line ends. Wide characters count
 * two columns. Nothing is lost, unlike cutting a line.
 */
export function wrapToWidth(text: string, width: number): string[] {
  if (width <= 0) return [text];
  const lines: string[] = [];
  let line = '';
  for (const token of text.match(/ +|[^ ]+/g) ?? []) {
    if (textWidth(line + token) <= width) {
      line += token;
    } else if (token.startsWith(' ')) {
      lines.push(line);
      line = '';
    } else {
      if (line.trim() !== '') lines.push(line.trimEnd());
      const pieces = hardBreak(token, width);
      lines.push(...pieces.slice(0, -1));
      line = pieces.at(-1) ?? '';
    }
  }
  lines.push(line);
  return lines.map((each) => each.trimEnd());
}

/**
 * `text` wrapped as wrapToWidth wraps it, each line after the first indented two columns past
 * its own indent, so that a list item's second line reads as part of it.
 */
export function wrapHanging(text: string, width: number): string[] {
  const indent = /^ */.exec(text)?.[0] ?? '';
  const hang = `${indent}  `;
  if (textWidth(text) <= width || width - hang.length < 10) return [text];
  const body = text.slice(indent.length);
  const first = wrapToWidth(body, width - indent.length)[0] ?? '';
  const rest = body.slice(first.length).trimStart();
  return [`${indent}${first}`, ...(rest === '' ? [] : wrapToWidth(rest, width - hang.length).map((line) => `${hang}${line}`))];
}
