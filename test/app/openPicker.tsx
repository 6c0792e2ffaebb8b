// Opens a Picker for a test: 20 checkpoints (each restore changing one file) at 80 x 24 unless told, fake keys, and what it chose or closed.
import React from 'react';
import { Picker } from '../../src/app/picker/Picker.js';
import type { PickerChoice, PickerProps } from '../../src/app/picker/types.js';
import { allModes, checkpoints, onePreview } from './pickerFixtures.js';
import { FakeKeys, renderWait, type Rendered } from './renderWait.js';

/** Opens a picker and waits until it is drawn and listening; `opened` collects it for unmounting. */
export async function openPicker(opened: Rendered[], over: Partial<Omit<PickerProps, 'keys' | 'onChoose' | 'onClose'>> = {}) {
  const keys = new FakeKeys();
  const chosen: PickerChoice[] = [];
  const closed: true[] = [];
  const props: PickerProps = {
    checkpoints: checkpoints(20),
    width: 80,
    height: 24,
    loadPreview: () => Promise.resolve(onePreview),
    modes: allModes,
    canUndo: false,
    agentBusy: false,
    ...over,
    keys,
    onChoose: (choice) => chosen.push(choice),
    onClose: () => closed.push(true),
  };
  const view = renderWait(<Picker {...props} />, { columns: Math.max(100, props.width) });
  opened.push(view);
  await view.waitForFrame((frame) => frame.includes('rewind to a checkpoint') && keys.subscribed, 3_000, 'the picker to open');
  return { view, keys, chosen, closed, props };
}
