import React from 'react';
import { Box, Text } from 'ink';

export interface CommandBarProps {
  width: number;
  text: string;
  error?: string;
}

/** The command line that replaces the status line while open (Ctrl+]). */
export function CommandBar({ width, text, error }: CommandBarProps) {
  return (
    <Box width={width} height={1} flexShrink={0}>
      <Text wrap="truncate-start">
        <Text color="magenta" bold>
          {' ◈ '}
        </Text>
        <Text>{`/${text}`}</Text>
        <Text inverse> </Text>
        {error ? <Text color="red">{`  ${error}`}</Text> : <Text dimColor>{'  Enter runs · Esc closes · /help'}</Text>}
      </Text>
    </Box>
  );
}
