import { parseTreeObject } from '../git/catFile.js';
import type { ShadowRepo } from './shadowRepo.js';

interface TreeNode {
  trees: string[];
  blobs: string[];
}

/**
 * Which of these trees can no longer be read whole: a tree, subtree or file content of
 * theirs is missing (borrowed through alternates from a project that has since pruned
 * it). Every distinct tree object is read once, however many checkpoints share it, through
 * one pipelined `cat-file --batch` and one `--batch-check`.
 */
export async function findBrokenTrees(repo: ShadowRepo, roots: readonly string[]): Promise<Set<string>> {
  const reader = repo.objectReader(true);
  const checker = repo.objectReader(false);
  const nodes = new Map<string, TreeNode | 'missing'>();
  try {
    let level = [...new Set(roots)];
    while (level.length > 0) {
      const read = await Promise.all(level.map((oid) => reader.read(oid)));
      const next: string[] = [];
      for (const object of read) {
        if ('missing' in object || object.type !== 'tree') {
          nodes.set(object.oid, 'missing');
          continue;
        }
        const node: TreeNode = { trees: [], blobs: [] };
        for (const entry of parseTreeObject(object.data)) {
          if (entry.mode === '040000') {
            node.trees.push(entry.oid);
            if (!nodes.has(entry.oid)) next.push(entry.oid);
          } else if (entry.mode !== '160000') {
            node.blobs.push(entry.oid);
          }
        }
        nodes.set(object.oid, node);
      }
      level = [...new Set(next)].filter((oid) => !nodes.has(oid));
    }
    const blobs = new Set<string>();
    for (const node of nodes.values()) if (node !== 'missing') for (const blob of node.blobs) blobs.add(blob);
    const found = await Promise.all([...blobs].map((oid) => checker.read(oid)));
    const missingBlobs = new Set(found.filter((object) => 'missing' in object).map((object) => object.oid));

    const broken = new Map<string, boolean>();
    const isBroken = (oid: string): boolean => {
      const known = broken.get(oid);
      if (known !== undefined) return known;
      const node = nodes.get(oid);
      const result = node === undefined || node === 'missing' || node.blobs.some((blob) => missingBlobs.has(blob)) || node.trees.some(isBroken);
      broken.set(oid, result);
      return result;
    };
    return new Set(roots.filter(isBroken));
  } finally {
    await Promise.all([reader.close(), checker.close()]);
  }
}
