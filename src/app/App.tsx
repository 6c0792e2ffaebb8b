import React, { useSyncExternalStore } from 'react';
import { Box } from 'ink';
import { AgentPane } from './AgentPane.js';
import { Panel } from './Panel.js';
import { panelSize } from './panelBody.js';
import { Picker } from './picker/Picker.js';
import type { AppView } from './view.js';
import { paneHeightOf } from './paneSize.js';

/** Where the view comes from: the session controller. */
export interface ViewSource {
  subscribe(listener: () => void): () => void;
  view(): AppView;
}

/**
 * What Ink draws: the pane's rows while an overlay or the picker covers the pane, and
 * nothing otherwise (the screen writer draws the pane from the session's frames, and the
 * bottom row itself).
 */
export function App({ source }: { source: ViewSource }) {
  const view = useSyncExternalStore(source.subscribe, source.view);
  if (!view.overlay && !view.picker) return null;
  const paneHeight = paneHeightOf(view.rows);
  const { width: overlayWidth, maxHeight } = panelSize(view.columns, view.rows);
  const pickerWidth = Math.max(20, view.columns);
  return (
    <Box width={view.columns} height={paneHeight} flexShrink={0}>
      {view.pane ? <AgentPane rows={view.pane.rows} height={paneHeight} width={view.columns} /> : null}
      {view.overlay ? (
        <Box position="absolute" marginTop={1} marginLeft={Math.max(0, Math.floor((view.columns - overlayWidth) / 2))}>
          <Panel title={view.overlay.title} lines={view.overlay.lines} width={overlayWidth} maxHeight={maxHeight} footer={view.overlay.footer} top={view.overlay.top} />
        </Box>
      ) : null}
      {view.picker ? (
        <Box position="absolute" marginLeft={Math.max(0, Math.floor((view.columns - pickerWidth) / 2))}>
          <Picker key={view.pickerOpened} {...view.picker} width={pickerWidth} height={paneHeight} />
        </Box>
      ) : null}
    </Box>
  );
}
