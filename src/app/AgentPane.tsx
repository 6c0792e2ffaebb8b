import React from 'react';
import { Box, Text } from 'ink';
import { ERASE_TO_END } from '../pty/sgrRow.js';
import { cellWidth } from './cellWidth.js';

export interface AgentPaneProps {
  /** One SGR-encoded string per row of the agent's screen. */
  rows: readonly string[];
  height: number;
  width: number;
}

// eslint-disable-next-line no-control-regex -- SGR sequences start with ESC
const SGR = /\x1b\[[0-9;:]*m/g;

/**
 * `row` with its erase to the end of the line (a tail erased with a background, see sgrRow)
 * spelled out as spaces up to `width`: Ink lays out text, it does not pass erases through.
 */
export function spelledOut(row: string, width: number): string {
  const at = row.indexOf(ERASE_TO_END);
  if (at < 0) return row;
  const before = row.slice(0, at);
  const used = cellWidth(before.replace(SGR, ''));
  return before + ' '.repeat(Math.max(0, width - used)) + row.slice(at + ERASE_TO_END.length);
}

/** The agent's emulated screen: one pre-rendered string per row (the fastest Ink draws). */
export function AgentPane({ rows, height, width }: AgentPaneProps) {
  const lines = Array.from({ length: height }, (_, index) => spelledOut(rows[index] ?? '', width) || ' ');
  return (
    <Box flexDirection="column" height={height} flexShrink={0}>
      {lines.map((line, index) => (
        <Text key={index} wrap="truncate-end">
          {line}
        </Text>
      ))}
    </Box>
  );
}
