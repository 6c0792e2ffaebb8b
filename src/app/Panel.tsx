import React from 'react';
import { Box, Text } from 'ink';

export interface PanelProps {
  title: string;
  lines: readonly string[];
  width: number;
  footer?: string;
}

/** A line padded with spaces to the full inner width: an overlay hides what is under it. */
function fill(text: string, width: number): string {
  return ` ${text}`.padEnd(width, ' ');
}

/** A bordered box over the pane: /checkpoints, /help, messages. */
export function Panel({ title, lines, width, footer = 'Esc closes' }: PanelProps) {
  const inner = Math.max(1, width - 2);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="magenta" width={width}>
      <Text bold color="magenta" wrap="truncate-end">
        {fill(title, inner)}
      </Text>
      {lines.map((line, index) => (
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
