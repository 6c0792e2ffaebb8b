import React from 'react';
import { Box, Text } from 'ink';

export interface PanelProps {
  title: string;
  lines: readonly string[];
  width: number;
  footer?: string;
}

/** A bordered box over the pane: /checkpoints, /help, messages. */
export function Panel({ title, lines, width, footer = 'Esc closes' }: PanelProps) {
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="magenta" width={width} paddingX={1}>
      <Text bold color="magenta" wrap="truncate-end">
        {title}
      </Text>
      {lines.map((line, index) => (
        <Text key={index} wrap="truncate-end">
          {line || ' '}
        </Text>
      ))}
      <Text dimColor wrap="truncate-end">
        {footer}
      </Text>
    </Box>
  );
}
