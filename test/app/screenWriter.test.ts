import { describe, expect, it } from 'vitest';
import { ScreenModel } from '../../src/pty/screen.js';
import { ScreenWriter, type ScreenLayout } from '../../src/app/screenWriter.js';

/** A writer drawing into a real terminal emulator, and what it wrote. */
function setup(layout: Partial<ScreenLayout> = {}) {
  const full: ScreenLayout = { columns: 20, rows: 5, paneHeight: 4, paneDirect: true, cursorInPane: true, bottom: 'status', ...layout };
  const terminal = new ScreenModel(full.columns, full.rows, 0);
  const writes: string[] = [];
  const writer = new ScreenWriter((data) => {
    writes.push(data);
    terminal.write(data);
  }, full);
  const screen = async () => {
    await terminal.flush();
    return terminal.text();
  };
  return { writer, writes, terminal, screen, layout: full };
}

const cursor = { x: 0, y: 0, visible: true };

describe('ScreenWriter', () => {
  it('draws the pane rows and the bottom row, then only the rows that changed', async () => {
    const { writer, writes, screen } = setup();
    writer.paneFrame({ rows: ['one', '\x1b[31mtwo\x1b[0m', 'three'], cursor });
    expect(await screen()).toEqual(['one', 'two', 'three', '', 'status']);
    writes.length = 0;
    writer.paneFrame({ rows: ['one', 'TWO', 'three'], cursor });
    expect(await screen()).toEqual(['one', 'TWO', 'three', '', 'status']);
    expect(writes.join('')).toContain('TWO');
    expect(writes.join('')).not.toContain('one');
    expect(writes.join('')).not.toContain('three');
  });

  it('writes nothing for a frame that shows the same', async () => {
    const { writer, writes } = setup();
    writer.paneFrame({ rows: ['same'], cursor });
    writes.length = 0;
    writer.paneFrame({ rows: ['same'], cursor });
    expect(writes).toEqual([]);
  });

  it('replaces a longer line completely, and keeps the last character of a full-width line', async () => {
    const { writer, screen } = setup();
    writer.paneFrame({ rows: ['a long line of text'], cursor });
    writer.paneFrame({ rows: ['short'], cursor });
    expect((await screen())[0]).toBe('short');
    writer.paneFrame({ rows: ['abcdefghijklmnopqrst', 'next'], cursor });
    expect((await screen()).slice(0, 2)).toEqual(['abcdefghijklmnopqrst', 'next']);
  });

  it("puts the real cursor where the child's is, and hides it while the command bar is open", async () => {
    const { writer, writes, terminal, layout } = setup();
    writer.paneFrame({ rows: ['$ ls'], cursor: { x: 4, y: 0, visible: true } });
    await terminal.flush();
    expect(terminal.cursor()).toMatchObject({ x: 4, y: 0, visible: true });
    writer.paneFrame({ rows: ['$ ls', 'file'], cursor: { x: 2, y: 1, visible: true } });
    await terminal.flush();
    expect(terminal.cursor()).toMatchObject({ x: 2, y: 1 });
    writes.length = 0;
    writer.setLayout({ ...layout, cursorInPane: false, bottom: ' ◈ /chec' });
    await terminal.flush();
    expect(terminal.cursor().visible).toBe(false);
    expect(terminal.text()[4]).toBe(' ◈ /chec');
  });

  it("puts the cursor where the child's is even while the child hides it (input methods and screen readers follow it), never on the status row", async () => {
    const { writer, terminal } = setup();
    writer.paneFrame({ rows: ['> draft', 'hint'], cursor: { x: 7, y: 0, visible: false } });
    await terminal.flush();
    expect(terminal.cursor()).toEqual({ x: 7, y: 0, visible: false });
    // The status row is redrawn: the cursor goes back where the child has it.
    writer.setLayout({ columns: 20, rows: 5, paneHeight: 4, paneDirect: true, cursorInPane: true, bottom: 'status 2' });
    await terminal.flush();
    expect(terminal.cursor()).toEqual({ x: 7, y: 0, visible: false });
    writer.paneFrame({ rows: ['> draft!', 'hint'], cursor: { x: 8, y: 0, visible: false } });
    await terminal.flush();
    expect(terminal.cursor()).toEqual({ x: 8, y: 0, visible: false });
    writer.paneFrame({ rows: ['> draft!', 'hint'], cursor: { x: 8, y: 0, visible: true } });
    await terminal.flush();
    expect(terminal.cursor()).toEqual({ x: 8, y: 0, visible: true });
  });

  it('while an overlay covers the pane, draws Ink’s frame there, and the pane again once it closes', async () => {
    const { writer, screen, layout } = setup();
    writer.paneFrame({ rows: ['agent output'], cursor });
    writer.setLayout({ ...layout, paneDirect: false });
    // Until Ink's frame for the overlay arrives, the pane stays as it was.
    expect((await screen())[0]).toBe('agent output');
    writer.inkFrame(['╭──────╮', '│ help │', '╰──────╯', ''].join('\n'));
    expect(await screen()).toEqual(['╭──────╮', '│ help │', '╰──────╯', '', 'status']);
    writer.paneFrame({ rows: ['agent output', 'more'], cursor });
    expect((await screen())[1]).toBe('│ help │');
    writer.setLayout({ ...layout, paneDirect: true });
    expect(await screen()).toEqual(['agent output', 'more', '', '', 'status']);
  });

  it('starts from a clear screen after a resize, and draws nothing once stopped', async () => {
    const { writer, writes, layout } = setup();
    writer.paneFrame({ rows: ['x'], cursor });
    writes.length = 0;
    writer.setLayout({ ...layout, columns: 30, rows: 6, paneHeight: 5 });
    expect(writes.join('')).toContain('\x1b[2J');
    expect(writes.join('')).toContain('x');
    writer.stop();
    writes.length = 0;
    writer.paneFrame({ rows: ['y'], cursor });
    writer.inkFrame('z');
    expect(writes).toEqual([]);
  });
});
