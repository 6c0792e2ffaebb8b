import { REWOUND_TRIGGER } from '../../shared/triggers.js';
import type { Engine } from '../snapshot/engine.js';
import type { CheckpointRecord } from '../store/record.js';
import { diffTrees } from './planRestore.js';
import { recordTreeOnTop } from './recordTree.js';
import { readRestoredMarker, writeRestoredMarker } from './restoredMarker.js';

/**
 * Records the files as the last rewind left them (its target's tree) as a checkpoint on top of
 * its redo point, so that the rewind's step ends there and what is done after it is a step of
 * its own. Only while nothing was checkpointed since that rewind, and only when the files are
 * exactly that tree (the restored marker says so); otherwise it records nothing. No file is
 * read: the tree is in the store. The marker then names the new checkpoint, which the files
 * still match.
 */
export async function recordRewound(engine: Engine): Promise<CheckpointRecord | undefined> {
  return engine.locked('record the files a rewind left', async () => {
    const newest = engine.log.last();
    const marker = readRestoredMarker(engine.store);
    if (!newest || marker?.rewound === undefined || marker.after !== newest.id || marker.tree === newest.tree) return undefined;
    const changes = await diffTrees(engine, newest.tree, marker.tree);
    const count = (status: string) => changes.filter((change) => change.status === status).length;
    const record = await recordTreeOnTop(engine, newest, marker.tree, REWOUND_TRIGGER, marker.rewound, { paths: changes.map((change) => change.path), added: count('A'), deleted: count('D') });
    writeRestoredMarker(engine.store, { tree: marker.tree, after: record.id });
    return record;
  });
}
