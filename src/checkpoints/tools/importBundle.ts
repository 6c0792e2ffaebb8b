// `rewind import`: an export's checkpoints added to this project's list as the newest ones,
// each a checkpoint commit of this shadow (the chain goes on: its parent is the checkpoint
// before it here), marked with where it came from.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Engine } from '../snapshot/engine.js';
import { initShadowRepo } from '../snapshot/shadowInit.js';
import { checkpointMessage } from '../store/message.js';
import type { CheckpointRecord } from '../store/record.js';
import { createStore } from '../store/store.js';
import { checkBundle } from './bundleCheck.js';
import { text } from '../git/git.js';
import { originKey, type ImportResult, type TransferredCheckpoint } from './transferTypes.js';

/** The origin keys of the checkpoints this project has: its own and those it imported. */
function knownOrigins(records: readonly CheckpointRecord[]): Set<string> {
  return new Set(records.map((record) => originKey(record.imported ?? record)));
}

/** The list entry of an imported checkpoint (`counted`: the one before it in the export came just before it here too). */
function importedRecord(entry: TransferredCheckpoint, id: number, commit: string, deduped: boolean, counted: boolean, at: string): CheckpointRecord {
  const { origin, changedSincePrevious, changedPaths, changes, ...kept } = entry;
  return {
    ...kept,
    id,
    commit,
    deduped,
    // What changed since the checkpoint before it is known only when that one is the same as there.
    changedSincePrevious: counted ? changedSincePrevious : null,
    ...(counted && changedPaths ? { changedPaths } : {}),
    ...(counted && changes ? { changes } : {}),
    imported: { from: origin.from, id: origin.id, commit: origin.commit, at },
  };
}

/**
 * Adds the checkpoints of an export (`bundle` and its entries, oldest first) that this
 * project does not have yet; the others are counted, not added again. The bundle is checked
 * whole first (bundleCheck.ts), so a damaged one changes nothing; `verified` runs once it
 * is, before anything is written. Holds the project lock while it writes.
 */
export async function importCheckpoints(engine: Engine, bundle: Buffer, entries: readonly TransferredCheckpoint[], where: string, verified: () => void = () => undefined): Promise<ImportResult> {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'rewind-import-'));
  try {
    const bundleFile = path.join(temp, 'import.bundle');
    fs.writeFileSync(bundleFile, bundle, { mode: 0o600 });
    await checkBundle(bundleFile, entries, engine.repo.env, where);
    return await engine.locked('import checkpoints', async () => {
      const known = knownOrigins(engine.repo.exists() ? engine.list() : []);
      // Once each: a file naming the same checkpoint twice adds it once.
      const todo = new Set<TransferredCheckpoint>();
      for (const entry of entries) {
        if (known.has(originKey(entry.origin))) continue;
        known.add(originKey(entry.origin));
        todo.add(entry);
      }
      if (todo.size === 0) return { added: [], already: entries.length };
      verified();
      if (!engine.repo.exists()) {
        createStore(engine.store, engine.project.root);
        await initShadowRepo(engine.repo);
      }
      await engine.repo.storeGit(['bundle', 'unbundle', bundleFile]);
      const now = engine.now();
      const at = new Date(now).toISOString();
      const added: CheckpointRecord[] = [];
      let newest = engine.log.last();
      let previousAdded = false;
      for (const entry of entries) {
        if (!todo.has(entry)) {
          previousAdded = false;
          continue;
        }
        const id = (newest?.id ?? 0) + 1;
        const deduped = newest !== undefined && newest.tree === entry.tree;
        let commit = newest?.commit ?? '';
        if (!deduped) {
          const parent = newest?.commit ? ['-p', newest.commit] : [];
          commit = text(await engine.repo.storeGit(['commit-tree', '--no-gpg-sign', ...parent, entry.tree], { input: checkpointMessage({ id, label: entry.label, trigger: entry.trigger }) }));
        }
        newest = importedRecord(entry, id, commit, deduped, previousAdded, at);
        added.push(newest);
        previousAdded = true;
      }
      // The refs first, then the list: a list cut short by a crash is rebuilt from the refs.
      await engine.repo.storeGit(['update-ref', '--stdin'], { input: added.map((record) => `update refs/checkpoints/${record.id} ${record.commit}\n`).join('') });
      for (const record of added) engine.log.append(record);
      return { added, already: entries.length - added.length };
    });
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}
