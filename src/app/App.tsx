import React, { useSyncExternalStore } from 'react';
import { Box, useCursor } from 'ink';
import { AgentPane } from './AgentPane.js';
import { CommandBar } from './CommandBar.js';
import { Panel } from './Panel.js';
import { Picker } from './picker/Picker.js';
import { StatusLine } from './StatusLine.js';
import type { AppView } from './view.js';

/** Where the view comes from: the session controller. */
export interface ViewSource {
  subscribe(listener: () => void): () => void;
  view(): AppView;
}

/** The whole screen: the agent's pane, the status line (or command bar), an overlay. */
export function App({ source }: { source: ViewSource }) {
  const view = useSyncExternalStore(source.subscribe, source.view);
  const { setCursorPosition } = useCursor();
  const paneHeight = Math.max(1, view.rows - 2);
  const cursor = view.pane.cursor;
  const showCursor = cursor.visible && !view.overlay && !view.picker && !view.commandBar && cursor.y < paneHeight;
  setCursorPosition(showCursor ? { x: cursor.x, y: cursor.y } : undefined);
  const overlayWidth = Math.min(view.columns - 2, 100);
  const pickerWidth = Math.max(20, view.columns);
  return (
    <Box flexDirection="column" width={view.columns} height={view.rows - 1}>
      <Box height={paneHeight} flexShrink={0}>
        <AgentPane rows={view.picker ? [] : view.pane.rows} height={paneHeight} />
        {view.overlay ? (
          <Box position="absolute" marginTop={1} marginLeft={Math.max(0, Math.floor((view.columns - overlayWidth) / 2))}>
            <Panel title={view.overlay.title} lines={view.overlay.lines.slice(0, Math.max(1, paneHeight - 4))} width={overlayWidth} footer={view.overlay.footer} />
          </Box>
        ) : null}
        {view.picker ? (
          <Box position="absolute" marginLeft={Math.max(0, Math.floor((view.columns - pickerWidth) / 2))}>
            <Picker {...view.picker} width={pickerWidth} height={paneHeight} />
          </Box>
        ) : null}
      </Box>
      {view.commandBar ? (
        <CommandBar width={view.columns} text={view.commandBar.text} error={view.commandBar.error} />
      ) : (
        <StatusLine width={view.columns} {...view.status} />
      )}
    </Box>
  );
}
