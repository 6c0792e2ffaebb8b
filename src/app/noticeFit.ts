import { cellWidth } from './cellWidth.js';

/**
 * A notice shortened to `width` columns with its meaning kept. Notices are said in one shape,
 * `what (aside): detail (how); more detail — what to do or another way`, and lose their parts
 * in this order until they fit: a repeated ` of #N` said once, the detail's asides, the other
 * asides, the other ways, the later clauses, then the detail (cut after a whole word, or
 * dropped), then which step a rewind went back to (` to just before “Edit a.txt”`, ` of “…”`;
 * the detail tried again without it). What happened and what to do stay; only a notice whose
 * what and what-to-do alone do not fit is cut, after a word. A step's name is quoted (`“Bash
 * npm test -- x: y”`, see runtime/restore/stepNames.ts): its own colons, dashes and brackets are
 * not the notice's.
 */
export function fitNotice(text: string, width: number): string {
  if (cellWidth(text) <= width) return text;
  const names: string[] = [];
  const masked = text.replace(quotedName, (name) => `${nameStart}${names.push(name) - 1}${nameEnd}`);
  const shown = (part: string) => part.replace(maskedName, (_, index: string) => names[Number(index)] ?? '');
  const fits = (part: string) => cellWidth(shown(part)) <= width;
  const split = masked.indexOf(' — ');
  let head = split < 0 ? masked : masked.slice(0, split);
  let tail = split < 0 ? '' : masked.slice(split);
  const steps: (() => void)[] = [
    () => (head = head.replace(/ of (#\d+) and (.+?) of \1\b/, ' and $2 of $1')),
    () => (head = withoutDetailAsides(head)),
    () => ((head = withoutAsides(head)), (tail = withoutAsides(tail))),
    () => (tail = tail.replace(/ or .*$/, '')),
    () => (head = head.split('; ')[0] ?? head),
  ];
  for (const step of steps) {
    step();
    if (fits(head + tail)) return shown(head + tail);
  }
  const withDetail = (): string | undefined => {
    if (fits(head + tail)) return shown(head + tail);
    const colon = head.indexOf(': ');
    if (colon <= 0) return undefined;
    const what = shown(head.slice(0, colon));
    const detail = cutDetail(head.slice(colon + 2), width - cellWidth(`${what}: ${shown(tail)}`), shown);
    if (detail) return `${what}: ${detail}${shown(tail)}`;
    return fits(head.slice(0, colon) + tail) ? shown(head.slice(0, colon) + tail) : undefined;
  };
  const cut = withDetail() ?? ((head = head.replace(namePhrase, '')), withDetail());
  if (cut !== undefined) return cut;
  head = head.split(': ')[0] ?? head;
  // The what alone is too long: cut after a word (a name is one), the what-to-do kept while the what keeps half the room.
  const after = shown(tail);
  const what = cutAfterWord(head, width - cellWidth(after), shown);
  if (after && what && cellWidth(what) >= width / 2) return what + after;
  return cutAfterWord(head + tail, width, shown) || cutCells(shown(head + tail), width);
}

/** A quoted name in a notice, and the private-use marks it is held as while the notice is cut. */
const quotedName = /“[^“”]*”/g;
const nameStart = '\u{F0000}';
const nameEnd = '\u{F0001}';
const maskedName = /\u{F0000}(\d+)\u{F0001}/gu;
/** Where a notice says which step a rewind went back to: ` to just before “Edit a.txt”`, ` to before prompt “fix it”`, ` of “Edit a.txt”`, ` of chosen files to just before “Edit a.txt”`. */
const namePhrase = / (?:of chosen files )?(?:to (?:just )?before|of) (?:prompt )?\u{F0000}\d+\u{F0001}/gu;

/** `what (aside): detail (how)` without the detail's asides (`(3 written, 1 deleted)`): the first to go, before the what's. */
function withoutDetailAsides(head: string): string {
  const colon = head.indexOf(': ');
  return colon < 0 ? head : head.slice(0, colon + 2) + withoutAsides(head.slice(colon + 2));
}

/** `text` without its asides: ` (…)` groups, one level of brackets inside them allowed (`(2 file(s))`). */
function withoutAsides(text: string): string {
  return text.replace(/ \((?:[^()]|\([^()]*\))*\)/g, '');
}

/** How a part of a notice reads with its names put back (`text` is what fitNotice works on: names held as marks). */
type Shown = (text: string) => string;

/**
 * As much of a detail as fits, with `…` after it: its first items (`4 file(s) changed, 1 left
 * alone`) whole, or most of the words of the first ('' when less fits: `3…` says nothing).
 */
function cutDetail(detail: string, width: number, shown: Shown): string {
  const items = detail.split(', ');
  let kept = '';
  for (const item of items) {
    const next = kept ? `${kept}, ${item}` : item;
    if (cellWidth(shown(next)) + 1 > width) break;
    kept = next;
  }
  if (kept) return `${shown(kept)}…`;
  const first = items[0] ?? '';
  // The first item whole only when it is all there is: with more dropped, `…` says so.
  const words = items.length === 1 ? cutAfterWord(first, width, shown) : wordsFitting(first, width, shown);
  return words.split(' ').length * 2 > shown(first).split(' ').length ? words : '';
}

/** The whole words of `text` that fit in `width` columns with `…` after them ('' when not one fits). */
function cutAfterWord(text: string, width: number, shown: Shown): string {
  return cellWidth(shown(text)) <= width ? shown(text) : wordsFitting(text, width, shown);
}

/** A cut's last word that says nothing before `…`: a comma's, a colon's, a dash or an arrow. */
const danglingEnd = /(?:[,;:]| ·| —| →)$/;

/** The first whole words of `text` with `…` after them, in `width` columns ('' when not one fits). */
function wordsFitting(text: string, width: number, shown: Shown): string {
  let kept = '';
  for (const word of text.split(' ')) {
    const next = kept ? `${kept} ${word}` : word;
    if (cellWidth(shown(next).replace(danglingEnd, '')) + 1 > width) break;
    kept = next;
  }
  return kept ? `${shown(kept).replace(danglingEnd, '')}…` : '';
}

/** The first `width` columns of `text`, ending in `…`: for a terminal too narrow for one word. */
function cutCells(text: string, width: number): string {
  let kept = '';
  for (const char of text) {
    if (cellWidth(kept + char) + 1 > width) break;
    kept += char;
  }
  return width > 0 ? `${kept}…` : '';
}
