import React from 'react';
import { Box, Text } from 'ink';
import { wrapToWidth } from './wrap.js';

export interface PanelProps {
  title: string;
  lines: readonly string[];
  width: number;
  /** Rows the box may take, border included (the pane's height under it). */
  maxHeight: number;
  footer?: string;
}

/** A line padded with spaces to the full inner width: an overlay hides what is under it. */
function fill(text: string, width: number): string {
  return ` ${text}`.padEnd(width, ' ');
}

/**
 * The panel's body: each line wrapped to the inner width (a line is never cut), at most
 * `rows` of them, the last saying how many more there are when they do not all fit.
 */
export function panelBody(lines: readonly string[], inner: number, rows: number): string[] {
  const wrapped = lines.flatMap((line) => wrapToWidth(line, Math.max(1, inner - 1)));
  if (wrapped.length <= rows) return wrapped;
  const shown = wrapped.slice(0, Math.max(0, rows - 1));
  return [...shown, `… ${wrapped.length - shown.length} more line(s): make the terminal taller to see them`];
}

/** A bordered box over the pane: /checkpoints, /help, messages. */
export function Panel({ title, lines, width, maxHeight, footer = 'Esc closes' }: PanelProps) {
  const inner = Math.max(1, width - 2);
  // Two border rows, the title and the footer.
  const body = panelBody(lines, inner, Math.max(1, maxHeight - 4));
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="magenta" width={width}>
      <Text bold color="magenta" wrap="truncate-end">
        {fill(title, inner)}
      </Text>
      {body.map((line, index) => (
        <Text key={index} wrap="truncate-end">
          {fill(line, inner)}
        </Text>
      ))}
      <Text dimColor wrap="truncate-end">
        {fill(footer, inner)}
      </Text>
    </Box>
  );
}
