import React from 'react';
import { Box, Text } from 'ink';
import { cutToWidth, textWidth } from './cut.js';
import { COMPACT_BELOW, rowsInView, rowText, type PickerRow } from './pickerRows.js';

export interface PickerListProps {
  rows: readonly PickerRow[];
  selected: number;
  top: number;
  height: number;
  width: number;
  /** Shown instead of the rows when there are none. */
  empty: string;
}

/** The rows in view (only those are formatted and cut; the undo row stays on top), the selected one marked with `›`. */
export function PickerList({ rows, selected, top, height, width, empty }: PickerListProps) {
  const shown = rowsInView(rows, top, height);
  const compact = width < COMPACT_BELOW;
  return (
    <Box flexDirection="column" height={height} flexShrink={0}>
      {shown.length === 0 ? (
        <Text dimColor wrap="truncate-end">
          {cutToWidth(empty, width)}
        </Text>
      ) : (
        shown.map((index) => {
          const row = rows[index] as PickerRow;
          const isSelected = index === selected;
          const mark = isSelected ? '›' : ' ';
          const whole = `${mark} ${rowText(row, compact)}`;
          // Too narrow for a rewind's row: its words first, so that the step's name stays.
          const text = cutToWidth(textWidth(whole) > width ? `${mark} ${rowText(row, compact, true)}` : whole, width);
          const key = row.kind === 'checkpoint' ? `c${row.checkpoint.id}` : `${row.kind}${index}`;
          if (row.kind === 'separator') {
            return (
              <Text key={key} dimColor wrap="truncate-end">
                {text}
              </Text>
            );
          }
          const gone = row.kind === 'checkpoint' && row.checkpoint.unrestorable === true;
          return (
            <Text key={key} wrap="truncate-end" bold={isSelected} color={isSelected ? 'cyan' : row.kind === 'undo' ? 'yellow' : undefined} dimColor={gone && !isSelected}>
              {text}
            </Text>
          );
        })
      )}
    </Box>
  );
}
