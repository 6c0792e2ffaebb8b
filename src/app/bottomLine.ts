import { cellWidth } from './cellWidth.js';
import { fitNotice } from './noticeFit.js';
import type { AppView } from './view.js';

/**
 * The bottom row (status line or command bar) as one SGR string, drawn without Ink: it
 * changes with the agent's state while the agent has the screen, and Ink is loaded only
 * for overlays and the picker.
 */

interface Span {
  text: string;
  /** SGR parameters, e.g. `1;35` (empty: default style). */
  style: string;
}

const styles = { brand: '1;35', dim: '2', info: '36', warning: '33', error: '31', cursor: '7', scrolled: '1;7;33' } as const;

function widthOf(spans: readonly Span[]): number {
  return spans.reduce((sum, span) => sum + cellWidth(span.text), 0);
}

/** With NO_COLOR: the attributes (bold, dim, inverse) stay, the colours go. */
function sgr(style: string, noColor: boolean): string {
  return noColor ? style.split(';').filter((part) => part === '1' || part === '2' || part === '7').join(';') : style;
}

function draw(spans: readonly Span[], noColor = false): string {
  return spans
    .map((span) => {
      const style = sgr(span.style, noColor);
      return style ? `\x1b[${style}m${span.text}\x1b[0m` : span.text;
    })
    .join('');
}

/** The first `width` columns of `spans`, ending in `…` when something was cut. */
function keepStart(spans: readonly Span[], width: number): Span[] {
  if (widthOf(spans) <= width) return [...spans];
  const kept: Span[] = [];
  let room = width - 1;
  for (const span of spans) {
    let text = '';
    for (const char of span.text) {
      const w = cellWidth(char);
      if (w > room) break;
      text += char;
      room -= w;
    }
    if (text) kept.push({ text, style: span.style });
    if (text !== span.text) break;
  }
  const last = kept.at(-1);
  return [...kept, { text: '…', style: last?.style ?? '' }];
}

/** The last `width` columns of `spans`, starting with `…` when something was cut. */
function keepEnd(spans: readonly Span[], width: number): Span[] {
  if (widthOf(spans) <= width) return [...spans];
  const reversed = [...spans].reverse().map((span) => ({ text: [...span.text].reverse().join(''), style: span.style }));
  return keepStart(reversed, width)
    .reverse()
    .map((span) => ({ text: [...span.text].reverse().join(''), style: span.style }));
}

/**
 * ` ◈ rewind restored the files to just before “Edit a.txt”: …`: a notice that does not fit whole gives up the
 * brand's word first (` ◈ `), then its own detail (fitNotice), never its what or what to do.
 */
function noticeRow(brand: readonly Span[], scrolled: readonly Span[], notice: NonNullable<AppView['status']['notice']>, width: number): Span[] {
  const style = styles[notice.tone];
  if (widthOf(brand) + cellWidth(notice.text) <= width) return [...brand, { text: notice.text, style }];
  const short: Span[] = [{ text: ' ◈ ', style: styles.brand }, ...scrolled];
  return keepStart([...short, { text: fitNotice(notice.text, width - widthOf(short)), style }], width);
}

/** ` ◈ rewind  #14 · 2m ago · 2.1 MB · agent idle        Esc Esc rewind · Ctrl+] commands ` */
export function statusLineRow(status: AppView['status'], width: number, noColor = false): string {
  // Scrolled back, the pane is not the live screen: said first, whatever else is said.
  const scrolled = status.scrolledBack ? [{ text: ` ↑ ${status.scrolledBack} line${status.scrolledBack === 1 ? '' : 's'} back `, style: styles.scrolled }, { text: ' ', style: '' }] : [];
  const brand: Span[] = [{ text: ' ◈ rewind ', style: styles.brand }, ...scrolled];
  if (status.notice) return draw(noticeRow(brand, scrolled, status.notice, width), noColor);
  const left: Span[] = [
    ...brand,
    { text: status.checkpoints, style: status.checkpointsOff ? styles.warning : styles.dim },
    ...(status.off ? [{ text: ' · ', style: styles.dim }, { text: status.off, style: styles.warning }] : []),
    { text: ` · ${status.agent}`, style: styles.dim },
  ];
  const right: Span = { text: ` ${status.keys} `, style: styles.dim };
  const rightWidth = cellWidth(right.text);
  if (rightWidth >= width) return draw(keepStart(left, width), noColor);
  const shown = keepStart(left, width - rightWidth);
  const gap = width - rightWidth - widthOf(shown);
  return draw([...shown, { text: ' '.repeat(gap), style: '' }, right], noColor);
}

/**
 * ` ◈ /che█  /checkpoint [label]  /checkpoints · Tab completes`: the typed text with the
 * cursor after it, then the error of the last Enter, or the hint (the commands that match).
 * The end of a long text stays in view; the hint is cut at its end, an error shortened with
 * its meaning kept (fitNotice), and the typed text keeps at least half the row.
 */
export function commandBarRow(bar: NonNullable<AppView['commandBar']>, width: number, noColor = false): string {
  const typed: Span[] = [
    { text: ' ◈ ', style: styles.brand },
    { text: bar.text.startsWith('/') ? bar.text : `/${bar.text}`, style: '' },
    { text: ' ', style: styles.cursor },
  ];
  const note: Span = bar.error ? { text: `  ${bar.error}`, style: styles.error } : { text: `  ${bar.hint ?? 'Enter runs · Esc closes'}`, style: styles.dim };
  const typedRoom = Math.min(width, Math.max(width - widthOf([note]), Math.floor(width / 2)));
  const shown = keepEnd(typed, typedRoom);
  const room = width - widthOf(shown);
  // An error is shortened as a notice is (its what and what to do kept), a hint cut at its end.
  const fitted = bar.error ? { ...note, text: `  ${fitNotice(bar.error, room - 2)}` } : note;
  return draw(room > 1 ? [...shown, ...keepStart([fitted], room)] : shown, noColor);
}

/** The bottom row for a view. */
export function bottomRow(view: AppView): string {
  return view.commandBar ? commandBarRow(view.commandBar, view.columns, view.noColor) : statusLineRow(view.status, view.columns, view.noColor);
}
