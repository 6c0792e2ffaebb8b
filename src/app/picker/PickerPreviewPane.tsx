import React from 'react';
import { Box, Text } from 'ink';
import { cutToWidth } from './cut.js';
import { previewLines, type PreviewLine } from './previewLines.js';
import type { PickerRow } from './pickerRows.js';
import type { PreviewStatus } from './usePreview.js';

export interface PickerPreviewPaneProps {
  row: PickerRow | undefined;
  status: PreviewStatus | undefined;
  width: number;
  height: number;
  /** The newest checkpoint's id: its preview's header speaks of the edits since it. */
  newestId: number | undefined;
}

const TONES: Record<NonNullable<PreviewLine['tone']>, { color?: string; dimColor?: boolean }> = {
  warning: { color: 'yellow' },
  error: { color: 'red' },
  dim: { dimColor: true },
};

function linesFor(row: PickerRow | undefined, status: PreviewStatus | undefined, height: number, newestId: number | undefined): PreviewLine[] {
  if (row?.kind === 'undo') return [{ text: 'undo the last rewind: puts back everything as it was just before it (the redo point)' }];
  if (row?.kind !== 'checkpoint') return [];
  if (status === undefined || status.state === 'loading') return [{ text: '…', tone: 'dim' }];
  return previewLines(row.checkpoint.id, status.preview, height, row.checkpoint.id === newestId);
}

/** Under the list: what restoring the selected row would change. */
export function PickerPreviewPane({ row, status, width, height, newestId }: PickerPreviewPaneProps) {
  const lines = linesFor(row, status, height, newestId).slice(0, height);
  return (
    <Box flexDirection="column" height={height} flexShrink={0}>
      {lines.map((line, index) => (
        <Text key={index} wrap="truncate-end" {...(line.tone ? TONES[line.tone] : {})}>
          {cutToWidth(line.text, width)}
        </Text>
      ))}
    </Box>
  );
}
