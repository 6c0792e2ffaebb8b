import React from 'react';
import { Box, Text } from 'ink';
import SelectInput from 'ink-select-input';
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

/** No indicator column of its own: each line draws its `›` itself, so the line is cut as one. */
function NoIndicator(): React.JSX.Element {
  return <></>;
}

/**
 * One mode's line: its letter and label, dimmed with the reason beside it when it cannot be
 * chosen (or on the line under it when the box is too narrow: the reason is never cut off).
 */
function modeLine(option: ModeOption, selected: boolean, width: number): React.JSX.Element {
  const active = selected && option.enabled;
  const text = `${selected ? '›' : ' '} ${option.key}  ${option.label}`;
  const reason = option.enabled ? undefined : (option.reason ?? 'this checkpoint does not allow it');
  const inline = reason !== undefined && textWidth(`${text} — ${reason}`) <= width;
  return (
    <Box flexDirection="column" flexShrink={0}>
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
}

/**
 * The second stage: the three restore modes with their letters, listed by ink-select-input.
 * The picker's reducer owns the selection and the keys (Rewind reads the keys itself and
 * hands them to the picker: Ink's own input is never fed), so the list is not focused and is
 * drawn anew at each move of the cursor.
 */
export function ModeMenu({ title, options, cursor, notice, width, height }: ModeMenuProps) {
  const byMode = new Map(options.map((option) => [option.mode, option]));
  const items = options.map((option) => ({ key: option.mode, label: option.mode, value: option.mode }));
  const Item = ({ isSelected = false, label }: { isSelected?: boolean; label: string }) => {
    const option = byMode.get(label as ModeOption['mode']);
    return option ? modeLine(option, isSelected, width) : <></>;
  };
  return (
    <Box flexDirection="column" height={height} flexShrink={0} overflow="hidden">
      <Text wrap="truncate-end">{cutToWidth(`rewind to ${title}`, width)}</Text>
      <SelectInput key={cursor} items={items} initialIndex={cursor} isFocused={false} indicatorComponent={NoIndicator} itemComponent={Item} />
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
