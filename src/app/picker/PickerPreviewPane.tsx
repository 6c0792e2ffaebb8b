import React from 'react';
import { Box, Text } from 'ink';
import { cutToWidth, wrapCuttingLongWords } from './cut.js';
import { previewLines, type PreviewLine } from './previewLines.js';
import type { PickerRow } from './pickerRows.js';
import type { PreviewStatus } from './usePreview.js';
import { FILES_UNTOUCHED } from './conversationCut.js';
import type { RestoreMode } from './types.js';

export interface PickerPreviewPaneProps {
  row: PickerRow | undefined;
  status: PreviewStatus | undefined;
  width: number;
  height: number;
  /** The newest checkpoint's id: its preview's header speaks of the edits since it. */
  newestId: number | undefined;
  /** On the mode screen: the mode the cursor is on, previewed as that mode does it. */
  mode?: RestoreMode;
  /** What restoring the conversation does to it (conversationCut), for the modes that do. */
  conversation?: string;
  /** What the undo row does (PickerProps.undoLines), once read. */
  undoLines?: readonly string[];
}

/** The undo row's line until what it undoes is read. */
export const UNDO_LINE = 'undo the last rewind: your files as they were just before it; the conversation stays as it is';

const TONES: Record<NonNullable<PreviewLine['tone']>, { color?: string; dimColor?: boolean }> = {
  warning: { color: 'yellow' },
  error: { color: 'red' },
  dim: { dimColor: true },
};

function linesFor(props: PickerPreviewPaneProps): PreviewLine[] {
  const { row, status, width, height, newestId, mode, conversation, undoLines } = props;
  if (row?.kind === 'undo') return undoLines ? undoLines.map((text) => ({ text })) : [{ text: UNDO_LINE }, { text: '…', tone: 'dim' }];
  if (row?.kind !== 'checkpoint') return [];
  // Where the conversation is cut is read whole: wrapped, not cut at the edge.
  const talk: PreviewLine[] = mode !== undefined && mode !== 'files' && conversation !== undefined ? wrapCuttingLongWords(conversation, width).map((text) => ({ text })) : [];
  if (mode === 'conversation') return [...talk, { text: FILES_UNTOUCHED, tone: 'dim' }];
  if (status === undefined || status.state === 'loading') return [...talk, { text: '…', tone: 'dim' }];
  return [...talk, ...previewLines(status.preview, height - talk.length, row.checkpoint.id === newestId)];
}

/**
 * Under the list: what restoring the selected row would change. On the mode screen, what the
 * mode under the cursor does: files (the files it changes), conversation (where the
 * conversation is cut; the files untouched), both.
 */
export function PickerPreviewPane(props: PickerPreviewPaneProps) {
  const { width, height } = props;
  const lines = linesFor(props).slice(0, height);
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
