// A step's checkpoint in the app stages only the paths the watcher saw change: every such
// checkpoint must equal a walk of the whole tree at the same moment. Random file operations
// (writes, deletes, renames of files and folders, folders made and removed, symlinks, files
// turned into folders and back, modes, ignored files, .gitignore edits) between the steps
// of the real session's triggers, watcher and engine; each checkpoint compared with a
// snapshot that walks the whole tree at the same moment, into a second store of its own.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configDefaults } from '../../src/config/schema.js';
import { openForApp } from '../../src/runtime/checkpointing/checkpointer.js';
import { CheckpointTriggers } from '../../src/runtime/checkpointing/checkpointTriggers.js';
import { Notices } from '../../src/runtime/session/notices.js';
import { openProjectCheckpoints } from '../../src/checkpoints/index.js';
import { createSandbox, defaultSettings, type Sandbox } from '../helpers/tempRepo.js';

/** A small seeded generator (mulberry32): a failing run is replayed from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const names = ['a', 'b', 'c', 'd'];
const folders = ['', 'src', 'src/lib', 'docs', 'pkg/x', 'pkg/y/z'];

/** One random operation on the tree under `root`; says what it did (for a failing run's story). */
function operate(root: string, next: () => number): string {
  const pick = <T,>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const at = (relative: string) => path.join(root, relative);
  const existing = (filter: (stat: fs.Stats) => boolean): string[] => {
    const found: string[] = [];
    const walk = (relative: string) => {
      for (const entry of fs.readdirSync(at(relative), { withFileTypes: true })) {
        const child = relative ? `${relative}/${entry.name}` : entry.name;
        if (entry.name === '.git') continue;
        const stat = fs.lstatSync(at(child));
        if (filter(stat)) found.push(child);
        if (stat.isDirectory()) walk(child);
      }
    };
    walk('');
    return found;
  };
  const somewhere = () => {
    const folder = pick(folders);
    return folder ? `${folder}/${pick(names)}${pick(['.txt', '.ts', '.log', ''])}` : `${pick(names)}${pick(['.txt', '.md', '.log'])}`;
  };
  const write = (file: string, text: string) => {
    try {
      fs.mkdirSync(path.dirname(at(file)), { recursive: true });
      if (fs.lstatSync(at(file), { throwIfNoEntry: false })?.isDirectory()) fs.rmSync(at(file), { recursive: true });
      fs.writeFileSync(at(file), text);
    } catch {
      // A file where a folder on the way should be: the operation is skipped.
    }
  };
  const kind = Math.floor(next() * 12);
  const files = existing((stat) => stat.isFile());
  const dirs = existing((stat) => stat.isDirectory());
  switch (kind) {
    case 0:
    case 1:
    case 2: {
      const file = next() < 0.6 && files.length > 0 ? pick(files) : somewhere();
      write(file, `${next()}\n`);
      return `write ${file}`;
    }
    case 3: {
      if (files.length === 0) return 'nothing to delete';
      const file = pick(files);
      fs.rmSync(at(file));
      return `delete ${file}`;
    }
    case 4: {
      if (files.length === 0) return 'nothing to rename';
      const from = pick(files);
      const to = somewhere();
      try {
        fs.mkdirSync(path.dirname(at(to)), { recursive: true });
        fs.renameSync(at(from), at(to));
      } catch {
        return `rename ${from} skipped`;
      }
      return `rename ${from} -> ${to}`;
    }
    case 5: {
      if (dirs.length === 0) return 'no folder to rename';
      const from = pick(dirs);
      const to = `${pick(['moved', 'src/moved', 'pkg/m'])}${Math.floor(next() * 3)}`;
      try {
        fs.mkdirSync(path.dirname(at(to)), { recursive: true });
        fs.renameSync(at(from), at(to));
      } catch {
        return `rename folder ${from} skipped`;
      }
      return `rename folder ${from} -> ${to}`;
    }
    case 6: {
      if (dirs.length === 0) return 'no folder to remove';
      const dir = pick(dirs);
      fs.rmSync(at(dir), { recursive: true });
      return `remove folder ${dir}`;
    }
    case 7: {
      const dir = `${pick(folders) || 'top'}/new${Math.floor(next() * 4)}`;
      for (let i = 0; i < 3; i++) write(`${dir}/deep${i % 2 ? '/er' : ''}/f${i}.txt`, `${next()}\n`);
      return `make folder ${dir}`;
    }
    case 8: {
      const link = somewhere();
      const target = pick(['a.txt', 'src', 'missing', '../outside', 'src/lib']);
      try {
        fs.rmSync(at(link), { recursive: true, force: true });
        fs.mkdirSync(path.dirname(at(link)), { recursive: true });
        fs.symlinkSync(target, at(link));
      } catch {
        return `symlink ${link} skipped`;
      }
      return `symlink ${link} -> ${target}`;
    }
    case 9: {
      if (files.length === 0) return 'no file to turn into a folder';
      const file = pick(files);
      fs.rmSync(at(file));
      write(`${file}/inside.txt`, 'now a folder\n');
      return `file ${file} -> folder`;
    }
    case 10: {
      if (files.length === 0) return 'no file to chmod';
      const file = pick(files);
      fs.chmodSync(at(file), fs.statSync(at(file)).mode & 0o111 ? 0o644 : 0o755);
      return `chmod ${file}`;
    }
    default: {
      const rules = pick(['*.log\n', '*.log\nsrc/lib/\n', '', 'docs/\n', '*.ts\n']);
      const where = pick(['.gitignore', 'src/.gitignore']);
      write(where, rules);
      return `${where} = ${JSON.stringify(rules)}`;
    }
  }
}

let sandbox: Sandbox | undefined;
let triggers: CheckpointTriggers | undefined;
afterEach(async () => {
  triggers?.stop();
  triggers = undefined;
  await sandbox?.cleanup();
  sandbox = undefined;
});

// Seeds of 50 steps: four here (200 checkpoints compared), forty in the bench (2,000: REWIND_PROPERTY_RUNS).
const seeds = Math.max(4, Math.ceil(Number(process.env.REWIND_PROPERTY_RUNS ?? 200) / 50));

describe('checkpoints staged from the paths the watcher saw change', () => {
  for (const seed of Array.from({ length: seeds }, (_, i) => i + 1)) {
    it(`equal a walk of the whole tree at every step (seed ${seed}, 50 steps)`, async () => {
      sandbox = createSandbox('rewind-scoped-');
      const sb = sandbox;
      const root = sb.repo('p');
      fs.writeFileSync(path.join(root, '.gitignore'), '*.log\n');
      fs.mkdirSync(path.join(root, 'src/lib'), { recursive: true });
      fs.writeFileSync(path.join(root, 'src/lib/a.ts'), 'export {}\n');
      const env = { ...sb.env };
      const availability = await openForApp(root, configDefaults(), env);
      const notices = new Notices(() => undefined);
      triggers = new CheckpointTriggers({ id: 's', agent: () => 'test' }, notices, () => undefined);
      triggers.attach(availability);
      await triggers.watching();
      const engine = triggers.checkpoints?.engine;
      if (!engine) throw new Error('checkpoints did not open');
      // The same project's checkpoints in a store of their own, every one a walk of the whole tree.
      const walked = openProjectCheckpoints({ cwd: root, settings: { ...defaultSettings }, home: path.join(sb.base, 'walked'), env });
      // The first step after the watcher starts walks everything; the watcher is then in place.
      await triggers.beforeStep({ trigger: 'tool', label: 'warm up' }, undefined);
      const next = random(seed);
      const story: string[] = [];
      let scoped = 0;
      for (let step = 0; step < 50; step++) {
        const ops = 1 + Math.floor(next() * 3);
        for (let i = 0; i < ops; i++) story.push(operate(root, next));
        const failed = await triggers.beforeStep({ trigger: 'tool', label: `step ${step}` }, undefined);
        expect(failed).toBeUndefined();
        const newest = engine.list().at(-1);
        if (newest?.fromChangedPaths) scoped++;
        const { record: full } = await walked.snapshot({ trigger: 'manual' });
        expect({ step, tree: newest?.tree }, `seed ${seed}, after: ${story.join('; ')}`).toEqual({ step, tree: full.tree });
        story.push(`-- checkpoint #${newest?.id}${newest?.fromChangedPaths ? ' (changed paths)' : ''}`);
      }
      // The property is about the narrowed staging: most steps must have used it.
      expect(scoped).toBeGreaterThan(25);
    }, 120_000);
  }
});
