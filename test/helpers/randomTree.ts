// Random work on a project's files for the property tests: writes, deletes, renames of files
// and folders, folders made and removed, symlinks, files turned into folders, modes, ignored
// files and .gitignore edits, from a seeded generator (a failing run is replayed from its seed).
import fs from 'node:fs';
import path from 'node:path';

/** A small seeded generator (mulberry32): a failing run is replayed from its seed. */
export function random(seed: number): () => number {
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
export function operate(root: string, next: () => number): string {
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
  /** Renames `from` to `to` (its folders made), or says it was skipped (a folder into itself, a file in the way). */
  const move = (from: string, to: string, what: string) => {
    try {
      fs.mkdirSync(path.dirname(at(to)), { recursive: true });
      fs.renameSync(at(from), at(to));
    } catch {
      return `${what} ${from} skipped`;
    }
    return `${what} ${from} -> ${to}`;
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
      return move(from, somewhere(), 'rename');
    }
    case 5: {
      if (dirs.length === 0) return 'no folder to rename';
      const from = pick(dirs);
      return move(from, `${pick(['moved', 'src/moved', 'pkg/m'])}${Math.floor(next() * 3)}`, 'rename folder');
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
