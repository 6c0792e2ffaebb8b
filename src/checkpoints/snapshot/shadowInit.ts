import fs from 'node:fs';
import path from 'node:path';
import { linkAlternates, writeShadowConfig, type ShadowRepo } from '../store/shadowRepo.js';
import { seedInfoExclude } from './excludeRules.js';

/**
 * Creates the shadow repo: `git init --bare`, then our own config (identity, no hooks,
 * no signing, no reflogs, no line-ending or filter conversion), info/exclude seeded with
 * the heavy patterns, and alternates to the project's object store.
 */
export async function initShadowRepo(repo: ShadowRepo): Promise<void> {
  const { store } = repo;
  // The layout `git init --bare` makes, written directly (one process less on the first
  // snapshot): HEAD, config, objects/{info,pack}, refs/{heads,tags}, info/.
  for (const dir of ['objects/info', 'objects/pack', 'refs/heads', 'refs/tags', 'info']) {
    fs.mkdirSync(path.join(repo.gitDir, dir), { recursive: true, mode: 0o700 });
  }
  fs.chmodSync(repo.gitDir, 0o700);
  fs.writeFileSync(path.join(repo.gitDir, 'HEAD'), 'ref: refs/heads/main\n', { mode: 0o600 });
  fs.mkdirSync(store.noHooks, { recursive: true, mode: 0o700 });
  fs.writeFileSync(store.empty, '', { mode: 0o600 });
  writeShadowConfig(repo);
  seedInfoExclude(path.join(repo.gitDir, 'info', 'exclude'));
  // Bytes in, the same bytes out: no end-of-line, filter (LFS) or encoding conversion,
  // whatever the project's .gitattributes say.
  fs.writeFileSync(path.join(repo.gitDir, 'info', 'attributes'), '* -text -eol -crlf -filter -ident -working-tree-encoding\n', { mode: 0o600 });
  linkAlternates(repo);
}
