// The hook client installed at a path that does not move with the package: the agents' hook
// definitions name $REWIND_HOME/hooks/rewind-hook.sh, rewritten only when its content changes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hookCommand, installedHookScript, packagedHookScript } from '../../src/agents/hookCommand.js';
import { shellWord } from '../../src/shared/shellWord.js';

let home: string;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'rewind-hook-script-'));
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

describe('the installed hook script', () => {
  it("is the packaged client, running this package's CLI when no app answers", () => {
    const script = installedHookScript({ REWIND_HOME: home });
    expect(script).toBe(path.join(home, 'hooks', 'rewind-hook.sh'));
    const cli = path.resolve(path.dirname(packagedHookScript()), '..', 'cli.js');
    expect(fs.readFileSync(script, 'utf8')).toBe(fs.readFileSync(packagedHookScript(), 'utf8').replaceAll('"$here/../cli.js"', shellWord(cli)));
    expect(fs.statSync(script).mode & 0o777).toBe(0o700);
    expect(hookCommand('codex', 'Stop', script)).toBe(`sh ${script} codex Stop`);
  });

  it('is rewritten only when its content changes (another package version or place)', () => {
    const script = installedHookScript({ REWIND_HOME: home });
    const first = fs.statSync(script);
    expect(installedHookScript({ REWIND_HOME: home })).toBe(script);
    expect(fs.statSync(script).ino).toBe(first.ino);
    fs.writeFileSync(script, '# an older version\n');
    installedHookScript({ REWIND_HOME: home });
    expect(fs.readFileSync(script, 'utf8')).toContain('rewind hook');
    expect(fs.statSync(script).ino).not.toBe(first.ino);
  });

  it('falls back to the packaged script where the store home cannot be written', () => {
    const notAFolder = path.join(home, 'file');
    fs.writeFileSync(notAFolder, '');
    expect(installedHookScript({ REWIND_HOME: notAFolder })).toBe(packagedHookScript());
  });
});
