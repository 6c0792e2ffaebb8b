// Listing entries of a checkpoint's tree at many paths: the paths go to git in chunks, so
// any number fits in the argument limit, and names are taken literally.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { argumentChunks, entriesAt } from '../../src/checkpoints/restore/treeEntries.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-tree-entries-');
});
afterEach(async () => {
  await sb.cleanup();
});

describe('entriesAt', () => {
  it('finds the entries among 50,000 paths (3 MB of arguments, past what one process takes)', async () => {
    const root = sb.repo('many');
    write(root, 'wanted/.gitignore', '*.o\n');
    write(root, '*', 'a file named *\n');
    write(root, ':colon', 'a file named :colon\n');
    const engine = sb.open(root);
    const { record } = await engine.snapshot();
    const missing = Array.from({ length: 50_000 }, (_, i) => `no/such/folder/with/a/long/name/number/${i}/.gitignore`);
    const found = await entriesAt(engine.repo, record.tree, [...missing.slice(0, 25_000), 'wanted/.gitignore', '*', ':colon', ...missing.slice(25_000)]);
    expect(found.map((entry) => `${entry.type} ${entry.path}`).sort()).toEqual(['blob *', 'blob :colon', 'blob wanted/.gitignore']);
    // A folder is one entry.
    expect((await entriesAt(engine.repo, record.tree, ['wanted'])).map((entry) => `${entry.type} ${entry.path}`)).toEqual(['tree wanted']);
  });

  it('argumentChunks keeps each run under the byte limit and every item once, in order', () => {
    const items = Array.from({ length: 1000 }, (_, i) => `item-${i}-${'x'.repeat(i % 50)}`);
    const chunks = argumentChunks(items, 4096);
    expect(chunks.flat()).toEqual(items);
    for (const chunk of chunks) expect(chunk.reduce((sum, item) => sum + Buffer.byteLength(item) + 1, 0)).toBeLessThanOrEqual(4096);
    expect(argumentChunks([])).toEqual([]);
  });
});
