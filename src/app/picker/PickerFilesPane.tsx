import React from 'react';
import { Box, Text } from 'ink';
import { cutToWidth } from './cut.js';
import { oneLine } from '../../shared/format.js';
import type { PickerPreview } from './types.js';

export interface PickerFilesPaneProps {
  /** The files a restore of the row would change (its preview's). */
  files: PickerPreview['files'];
  /** Files edited after the newest checkpoint (marked `!`). */
  unsaved: readonly string[];
  unticked: ReadonlySet<string>;
  cursor: number;
  width: number;
  height: number;
}

/** Tab's file list: each file a restore would change, ticked or not, the cursor's in view. */
export function PickerFilesPane({ files, unsaved, unticked, cursor, width, height }: PickerFilesPaneProps) {
  const room = Math.max(1, height);
  const top = Math.max(0, Math.min(cursor - Math.floor(room / 2), files.length - room));
  const edited = new Set(unsaved);
  return (
    <Box flexDirection="column" height={room} flexShrink={0}>
      {files.slice(top, top + room).map((file, index) => {
        const at = top + index === cursor;
        const counts = file.added === null || file.removed === null ? 'binary' : `+${file.added} -${file.removed}`;
        const text = `${at ? '›' : ' '} [${unticked.has(file.path) ? ' ' : 'x'}] ${edited.has(file.path) ? '!' : ' '} ${file.status} ${oneLine(file.path)}  ${counts}`;
        return (
          <Text key={file.path} wrap="truncate-end" {...(at ? { color: 'cyan' } : {})} {...(edited.has(file.path) && !at ? { color: 'yellow' } : {})}>
            {cutToWidth(text, width)}
          </Text>
        );
      })}
    </Box>
  );
}
