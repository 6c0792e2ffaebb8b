import React from 'react';
import { Box, Text } from 'ink';
import { cutToWidth } from './cut.js';

export interface PickerDiffPaneProps {
  /** The step's diff as lines; undefined while it loads. */
  lines: readonly string[] | undefined;
  top: number;
  width: number;
  height: number;
}

function colorOf(line: string): { color?: string; bold?: boolean; dimColor?: boolean } {
  if (line.startsWith('diff --git') || line.startsWith('#')) return { bold: true };
  if (line.startsWith('@@')) return { color: 'cyan' };
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('index ')) return { dimColor: true };
  if (line.startsWith('+')) return { color: 'green' };
  if (line.startsWith('-')) return { color: 'red' };
  return {};
}

/** The selected step's own diff, from line `top`, `height` rows (the data comes from the session). */
export function PickerDiffPane({ lines, top, width, height }: PickerDiffPaneProps) {
  const shown = lines === undefined ? ['…'] : lines.slice(top, top + height);
  return (
    <Box flexDirection="column" height={height} flexShrink={0}>
      {shown.map((line, index) => (
        <Text key={top + index} wrap="truncate-end" {...colorOf(line)}>
          {cutToWidth(line.replace(/\t/g, '    '), width)}
        </Text>
      ))}
    </Box>
  );
}
