import React from 'react';
import { Box, Text } from 'ink';

export interface AgentPaneProps {
  /** One SGR-encoded string per row of the agent's screen. */
  rows: readonly string[];
  height: number;
}

/** The agent's emulated screen: one pre-rendered string per row (the fastest Ink draws). */
export function AgentPane({ rows, height }: AgentPaneProps) {
  const lines = Array.from({ length: height }, (_, index) => rows[index] || ' ');
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
