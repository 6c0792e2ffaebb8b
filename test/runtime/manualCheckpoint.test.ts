// `/checkpoint [label]` in the app: its notice names the checkpoint as its row in the picker
// reads (rows show no checkpoint ids), and says when nothing changed since the previous one.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configDefaults } from '../../src/config/schema.js';
import { openForApp } from '../../src/runtime/checkpointing/checkpointer.js';
import { CheckpointTriggers } from '../../src/runtime/checkpointing/checkpointTriggers.js';
import { Notices } from '../../src/runtime/session/notices.js';
import { rowsNow } from '../../src/runtime/restore/stepNames.js';
import { checkpointTitle } from '../../src/app/picker/pickerRows.js';
import { createSandbox, type Sandbox } from '../helpers/tempRepo.js';

let sandbox: Sandbox | undefined;
let triggers: CheckpointTriggers | undefined;
afterEach(async () => {
  triggers?.stop();
  await sandbox?.cleanup();
});

describe('a checkpoint taken with /checkpoint', () => {
  it('is named in its notice as its row reads, with no id', async () => {
    sandbox = createSandbox('rewind-manual-');
    const root = sandbox.repo('p');
    fs.writeFileSync(path.join(root, 'a.txt'), 'one\n');
    const notices = new Notices(() => undefined);
    triggers = new CheckpointTriggers({ id: 's', agent: () => 'test' }, notices, () => undefined);
    triggers.attach(await openForApp(root, configDefaults(), { ...sandbox.env }));
    await triggers.watching();
    const engine = triggers.checkpoints?.engine;
    if (!engine) throw new Error('checkpoints did not open');
    // As in a session: the first step after the watcher starts walks everything; it then sees each change.
    await triggers.beforeStep({ trigger: 'tool', label: 'warm up' }, undefined);

    fs.writeFileSync(path.join(root, 'a.txt'), 'two\n');
    await triggers.checkpoint({ trigger: 'manual', label: 'before the refactor' });
    const row = rowsNow(engine).at(-1);
    expect(row && checkpointTitle(row)).toBe('before the refactor');
    expect(notices.said.at(-1)?.text).toBe('checkpoint taken: “before the refactor”');

    await triggers.checkpoint({ trigger: 'manual', label: 'manual checkpoint' });
    expect(notices.said.at(-1)?.text).toBe('checkpoint taken: “manual checkpoint” (no change since the previous one)');
    expect(notices.said.map((notice) => notice.text).join('\n')).not.toMatch(/#\d/);
  });
});
