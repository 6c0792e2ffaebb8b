import React from 'react';
import { Box, Text } from 'ink';

export interface StatusLineProps {
  width: number;
  /** e.g. `#14 · 2m ago · 2.1 MB`, or why checkpointing is off. */
  checkpoints: string;
  checkpointsOff: boolean;
  agent: string;
  notice?: { text: string; tone: 'info' | 'warning' | 'error' };
  keys: string;
}

/** The line under the pane: rewind's state on the left, the keys on the right. */
export function StatusLine({ width, checkpoints, checkpointsOff, agent, notice, keys }: StatusLineProps) {
  const color = notice?.tone === 'error' ? 'red' : notice?.tone === 'warning' ? 'yellow' : 'cyan';
  return (
    <Box width={width} height={1} flexShrink={0}>
      <Box flexGrow={1} flexShrink={1}>
        <Text wrap="truncate-end">
          <Text color="magenta" bold>
            {' ◈ rewind '}
          </Text>
          {notice ? (
            <Text color={color}>{notice.text}</Text>
          ) : (
            <Text>
              <Text color={checkpointsOff ? 'yellow' : undefined} dimColor={!checkpointsOff}>
                {checkpoints}
              </Text>
              <Text dimColor>{` · ${agent}`}</Text>
            </Text>
          )}
        </Text>
      </Box>
      {notice ? null : (
        <Box flexShrink={0}>
          <Text dimColor>{` ${keys} `}</Text>
        </Box>
      )}
    </Box>
  );
}
