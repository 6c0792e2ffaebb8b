// The first checkpoint's commit and ref are written by the engine itself: they must be
// exactly what git writes, and the shadow repo must stay sound for git.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRef, writeRootCommit } from '../../src/checkpoints/git/looseCommit.js';
import { shadowIdentity } from '../../src/checkpoints/git/gitEnv.js';
import { hermeticGitEnv, runGitSync, createSandbox, type Sandbox } from '../helpers/tempRepo.js';
import { shadowGit } from '../helpers/shadow.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-loose-');
});
afterEach(() => sb.cleanup());

describe('the first commit, written without git', () => {
  it('is byte for byte the commit `git commit-tree` makes of the same tree, message and time', async () => {
    const root = sb.repo('same');
    const checkpoints = sb.open(root);
    const { record } = await checkpoints.snapshot({ label: 'first', trigger: 'manual' });
    const gitDir = checkpoints.repo.gitDir;
    const when = new Date('2026-03-01T12:00:00Z');
    const message = `héllo\n\nRewind-Checkpoint: 7\nRewind-Trigger: enter\n`;
    // A zone with half hours, for this process and for git alike: each writes its own offset.
    const zoneBefore = process.env.TZ;
    process.env.TZ = 'Asia/Kolkata';
    let ours: string;
    try {
      ours = writeRootCommit(gitDir, record.tree, message, when);
    } finally {
      if (zoneBefore === undefined) delete process.env.TZ;
      else process.env.TZ = zoneBefore;
    }
    const date = `@${Math.floor(when.getTime() / 1000)}`;
    const env = {
      ...hermeticGitEnv(sb.folder('home')),
      TZ: 'Asia/Kolkata',
      GIT_AUTHOR_NAME: shadowIdentity.name,
      GIT_AUTHOR_EMAIL: shadowIdentity.email,
      GIT_COMMITTER_NAME: shadowIdentity.name,
      GIT_COMMITTER_EMAIL: shadowIdentity.email,
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    };
    const theirs = runGitSync(env, root, [`--git-dir=${gitDir}`, 'commit-tree', record.tree], message).toString().trim();
    expect(ours).toBe(theirs);
    expect(shadowGit(gitDir, 'cat-file', '-p', ours)).toContain('+0530');
  });

  it('leaves a repository git finds sound, the ref pointing at a parentless commit of the tree', async () => {
    const root = sb.repo('fsck');
    const checkpoints = sb.open(root);
    const { record } = await checkpoints.snapshot({ label: 'the first one', trigger: 'manual' });
    const gitDir = checkpoints.repo.gitDir;
    expect(shadowGit(gitDir, 'rev-parse', 'refs/checkpoints/1').trim()).toBe(record.commit);
    expect(shadowGit(gitDir, 'cat-file', '-t', record.commit).trim()).toBe('commit');
    expect(shadowGit(gitDir, 'log', '-1', '--format=%T %P|%an <%ae>|%s', record.commit).trim()).toBe(`${record.tree} |rewind <rewind@localhost>|the first one`);
    shadowGit(gitDir, 'fsck', '--strict', '--no-dangling', '--no-progress');
    // The next checkpoint continues the chain from it.
    fs.writeFileSync(path.join(root, 'new.txt'), 'x\n');
    const second = await checkpoints.snapshot({ trigger: 'manual' });
    expect(shadowGit(gitDir, 'log', '-1', '--format=%P', second.record.commit).trim()).toBe(record.commit);
  });

  it('a ref whose lock another writer holds is not written', async () => {
    const root = sb.repo('locked');
    const checkpoints = sb.open(root);
    const { record } = await checkpoints.snapshot({ trigger: 'manual' });
    const gitDir = checkpoints.repo.gitDir;
    fs.writeFileSync(path.join(gitDir, 'refs', 'checkpoints', '9.lock'), '');
    expect(() => createRef(gitDir, 'refs/checkpoints/9', record.commit)).toThrow(/EEXIST/);
    expect(fs.existsSync(path.join(gitDir, 'refs', 'checkpoints', '9'))).toBe(false);
  });

  it('a first checkpoint after one that crashed holding its ref lock clears the stale lock and is written', async () => {
    const root = sb.repo('crashed-first');
    const checkpoints = sb.open(root);
    const gitDir = checkpoints.repo.gitDir;
    fs.mkdirSync(path.join(gitDir, 'refs', 'checkpoints'), { recursive: true });
    const lock = path.join(gitDir, 'refs', 'checkpoints', '1.lock');
    fs.writeFileSync(lock, 'left by a crashed rewind\n');
    const { record } = await checkpoints.snapshot({ trigger: 'manual' });
    expect(record.id).toBe(1);
    expect(shadowGit(gitDir, 'rev-parse', 'refs/checkpoints/1').trim()).toBe(record.commit);
    expect(fs.existsSync(lock)).toBe(false);
  });
});
