// The one way component tests render: ink-testing-library, frames read without colours, and
// waiting for a frame that satisfies a predicate (polled; the timeout is a safety net, never a
// delay). Plus a fake KeySource that runs raw bytes through the real KeyReader.
import React, { type ReactElement } from 'react';
import { stripVTControlCharacters } from 'node:util';
import { render } from 'ink-testing-library';
import { KeyReader, type KeyEvent } from '../../src/pty/keys.js';
import type { KeySource } from '../../src/app/picker/types.js';

export interface Rendered {
  /** The last frame drawn, without colours ('' before the first). */
  frame(): string;
  /** The last frame's lines. */
  lines(): string[];
  /** Resolves with the first frame for which `predicate` holds; fails with the last frame after `timeoutMs`. */
  waitForFrame(predicate: (frame: string) => boolean, timeoutMs?: number, what?: string): Promise<string>;
  rerender(element: ReactElement): void;
  unmount(): void;
}

/** Renders `element` in a terminal `columns` wide (ink-testing-library's is 100). */
export function renderWait(element: ReactElement, options: { columns?: number } = {}): Rendered {
  const instance = render(element);
  if (options.columns !== undefined && options.columns !== 100) {
    const { columns } = options;
    Object.defineProperty(instance.stdout, 'columns', { get: () => columns });
    // Ink lays out again on every commit, reading the new width.
    instance.rerender(React.cloneElement(element));
  }
  const frame = () => stripVTControlCharacters(instance.lastFrame() ?? '');
  return {
    frame,
    lines: () => frame().split('\n'),
    async waitForFrame(predicate, timeoutMs = 3_000, what = 'the frame') {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const current = frame();
        if (predicate(current)) return current;
        if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last frame:\n${current}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    rerender: (next) => instance.rerender(next),
    unmount: () => {
      instance.unmount();
      instance.cleanup();
    },
  };
}

/** A KeySource for tests: `press` feeds raw terminal bytes through the app's KeyReader. */
export class FakeKeys implements KeySource {
  private readonly reader = new KeyReader();
  private readonly listeners = new Set<(event: KeyEvent) => void>();

  subscribe(listener: (event: KeyEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Whether the component has subscribed (keys pressed before that would be lost). */
  get subscribed(): boolean {
    return this.listeners.size > 0;
  }

  /** Delivers `raw` as one read from stdin. */
  press(raw: string): void {
    if (!this.subscribed) throw new Error('nothing listens to the keys yet: wait until the component has subscribed');
    for (const event of this.reader.feed(raw)) for (const listener of [...this.listeners]) listener(event);
  }
}

/** Raw bytes of the keys the picker knows. */
export const KEY = {
  up: '\x1b[A',
  down: '\x1b[B',
  upApp: '\x1bOA',
  downApp: '\x1bOB',
  pageUp: '\x1b[5~',
  pageDown: '\x1b[6~',
  home: '\x1b[H',
  end: '\x1b[F',
  enter: '\r',
  esc: '\x1b',
  backspace: '\x7f',
  ctrlC: '\x03',
} as const;
