import React from 'react';
import { Box, Text } from 'ink';
import { bodyRows, panelBody, wrappedLines } from './panelBody.js';

export interface PanelProps {
  title: string;
  lines: readonly string[];
  width: number;
  /** Rows the box may take, border included (the pane's height under it). */
  maxHeight: number;
  footer?: string;
  /** The first wrapped line shown (scrolled): see panelBody. */
  top?: number;
}

/** A line padded with spaces to the full inner width: an overlay hides what is under it. */
function fill(text: string, width: number): string {
  return ` ${text}`.padEnd(width, ' ');
}

/** A bordered box over the pane: /checkpoints, /help, messages. */
export function Panel({ title, lines, width, maxHeight, footer = 'Esc, Enter or q closes', top = 0 }: PanelProps) {
  const inner = Math.max(1, width - 2);
  const body = panelBody(wrappedLines(lines, width), bodyRows(maxHeight), top);
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
