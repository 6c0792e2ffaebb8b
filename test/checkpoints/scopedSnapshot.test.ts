// A snapshot given the paths that changed (SnapshotOptions.paths) stages those only, with
// git's own add and rm --cached, and equals a walk of the whole tree; whatever a path alone
// cannot say is settled by that walk instead.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openProjectCheckpoints, type ProjectCheckpoints } from '../../src/checkpoints/index.js';
import { createSandbox, defaultSettings, type Sandbox } from '../helpers/tempRepo.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.cleanup();
  sandbox = undefined;
});

const odd = ['with space.txt', 'new\nline.txt', ':colon.txt', '-dash.txt', 'star*.txt', '[bracket].txt', 'ünïcode.txt', 'q?.txt'];

function setup(): { root: string; engine: ProjectCheckpoints; walked: ProjectCheckpoints; write: (file: string, text: string) => void } {
  sandbox = createSandbox('rewind-scope-');
  const sb = sandbox;
  const root = sb.repo('p');
  fs.mkdirSync(path.join(root, 'odd'));
  for (const name of odd) fs.writeFileSync(path.join(root, 'odd', name), 'first\n');
  fs.writeFileSync(path.join(root, '.gitignore'), '*.log\n');
  const engine = sb.project(root);
  const walked = openProjectCheckpoints({ cwd: root, settings: { ...defaultSettings }, home: path.join(sb.base, 'walked'), env: { ...sb.env } });
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  return { root, engine, walked, write };
}

async function bothAgree(engine: ProjectCheckpoints, walked: ProjectCheckpoints, paths: readonly string[]): Promise<boolean> {
  const scoped = await engine.snapshot({ trigger: 'tool', label: 'step', paths });
  const full = await walked.snapshot({ trigger: 'tool', label: 'step' });
  expect(scoped.record.tree).toBe(full.record.tree);
  return scoped.fromChangedPaths;
}

describe('a snapshot of the paths that changed', () => {
  it('stages odd names exactly (no pathspec magic, no glob), edits and deletions alike', async () => {
    const { root, engine, walked, write } = setup();
    await engine.snapshot();
    await walked.snapshot();
    for (const name of odd.slice(0, 4)) write(`odd/${name}`, 'edited\n');
    for (const name of odd.slice(4)) fs.rmSync(path.join(root, 'odd', name));
    write('odd/star.txt', 'a file the glob star*.txt would match\n');
    expect(await bothAgree(engine, walked, [...odd.map((name) => `odd/${name}`), 'odd/star.txt'])).toBe(true);
    expect(engine.list().at(-1)?.fromChangedPaths).toBe(true);
  });

  it('takes a folder that is gone out whole, and a file that became a folder', async () => {
    const { root, engine, walked, write } = setup();
    write('a/b/c.txt', 'c\n');
    write('a/d.txt', 'd\n');
    await engine.snapshot();
    await walked.snapshot();
    fs.rmSync(path.join(root, 'a/b'), { recursive: true });
    fs.rmSync(path.join(root, 'a/d.txt'));
    write('a/d.txt/inside.txt', 'now a folder\n');
    expect(await bothAgree(engine, walked, ['a/b', 'a/d.txt', 'never/existed.txt'])).toBe(true);
  });

  it('walks the whole tree for an ignore file, a path outside the project or a path through a symlink', async () => {
    const { root, engine, walked, write } = setup();
    write('src/x.txt', 'x\n');
    fs.symlinkSync('src', path.join(root, 'link'));
    await engine.snapshot();
    await walked.snapshot();
    write('src/x.txt', 'edited\n');
    write('.gitignore', '*.txt\n');
    expect(await bothAgree(engine, walked, ['.gitignore'])).toBe(false);
    write('.gitignore', '*.log\n');
    expect(await bothAgree(engine, walked, ['../outside.txt'])).toBe(false);
    write('src/x.txt', 'again\n');
    expect(await bothAgree(engine, walked, [path.join(root, 'src/x.txt')])).toBe(false);
    write('src/x.txt', 'once more\n');
    expect(await bothAgree(engine, walked, ['link/x.txt'])).toBe(false);
  });

  it('an ignored path among them is settled by a walk of the whole tree, the others kept', async () => {
    const { engine, walked, write } = setup();
    await engine.snapshot();
    await walked.snapshot();
    write('debug.log', 'ignored\n');
    write('kept.txt', 'kept\n');
    expect(await bothAgree(engine, walked, ['debug.log', 'kept.txt'])).toBe(false);
    expect(engine.list().at(-1)?.changedPaths).toEqual(['kept.txt']);
  });

  it('plain files (staged without add\'s walk): a file where a folder was, a symlink, an executable bit, a file in a repository of its own', async () => {
    const { root, engine, walked, write } = setup();
    write('was/a/folder.txt', 'f\n');
    write('tool.sh', 'echo\n');
    await engine.snapshot();
    await walked.snapshot();
    fs.rmSync(path.join(root, 'was/a'), { recursive: true });
    write('was/a', 'a file now\n');
    fs.symlinkSync('tool.sh', path.join(root, 'to-tool'));
    fs.chmodSync(path.join(root, 'tool.sh'), 0o755);
    expect(await bothAgree(engine, walked, ['was/a', 'to-tool', 'tool.sh'])).toBe(true);
    // A repository of its own in the project: its files are its (a link to its HEAD), not the project's.
    const sub = path.join(root, 'sub');
    write('sub/y.txt', 'y\n');
    sandbox?.git(sub, 'init', '-q');
    sandbox?.git(sub, 'add', '-A');
    sandbox?.git(sub, 'commit', '-q', '-m', 'sub');
    await bothAgree(engine, walked, ['sub']);
    write('sub/y.txt', 'edited inside it\n');
    await bothAgree(engine, walked, ['sub/y.txt']);
  });

  it('none at all: the tree of the newest checkpoint, no walk', async () => {
    const { engine, walked } = setup();
    const first = await engine.snapshot();
    await walked.snapshot();
    const again = await engine.snapshot({ trigger: 'tool', label: 'nothing', paths: [], onlyIfChanged: true });
    expect(again.unchanged).toBe(true);
    expect(again.fromChangedPaths).toBe(true);
    expect(again.record.id).toBe(first.record.id);
  });
});
