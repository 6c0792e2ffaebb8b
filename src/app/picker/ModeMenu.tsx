import React from 'react';
import { Box, Text } from 'ink';
import { cutToWidth, textWidth } from './cut.js';
import type { ModeOption } from './modeOptions.js';

export interface ModeMenuProps {
  /** What is being restored, e.g. the row's text. */
  title: string;
  options: readonly ModeOption[];
  cursor: number;
  /** Why the last key did nothing (e.g. a disabled mode), wrapped under the modes. */
  notice: string | undefined;
  width: number;
  height: number;
}

/**
 * The second stage: the three restore modes with their letters. A disabled mode is dimmed
 * with its reason beside it, or on the line under it when the box is too narrow: the reason
 * is never cut off.
 */
export function ModeMenu({ title, options, cursor, notice, width, height }: ModeMenuProps) {
  return (
    <Box flexDirection="column" height={height} flexShrink={0} overflow="hidden">
      <Text wrap="truncate-end">{cutToWidth(`rewind to ${title}`, width)}</Text>
      {options.map((option, index) => {
        const active = index === cursor && option.enabled;
        const text = `${index === cursor ? '›' : ' '} ${option.key}  ${option.label}`;
        const reason = option.enabled ? undefined : (option.reason ?? 'this checkpoint does not allow it');
        const inline = reason !== undefined && textWidth(`${text} — ${reason}`) <= width;
        return (
          <Box key={option.mode} flexDirection="column" flexShrink={0}>
            <Text wrap="truncate-end" dimColor={!option.enabled} bold={active} color={active ? 'cyan' : undefined}>
              {cutToWidth(inline ? `${text} — ${reason}` : text, width)}
            </Text>
            {reason !== undefined && !inline ? (
              <Box paddingLeft={5}>
                <Text dimColor wrap="wrap">
                  {reason}
                </Text>
              </Box>
            ) : null}
          </Box>
        );
      })}
      {notice !== undefined ? (
        <Box marginTop={1} flexShrink={0}>
          <Text color="yellow" wrap="wrap">
            {notice}
          </Text>
        </Box>
      ) : null}
    </Box>
  );
}
