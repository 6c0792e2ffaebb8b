// Whether the app can take checkpoints, and why not: real folders, real git on PATH.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openForApp } from '../../src/runtime/checkpointing/checkpointer.js';
import { configDefaults } from '../../src/config/schema.js';
import { createSandbox, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-open-');
});
afterEach(() => sb.cleanup());

describe('opening checkpoints for the app', () => {
  it('are on in a project when git is on PATH', async () => {
    const availability = await openForApp(sb.repo('on'), configDefaults(), sb.env);
    expect(availability.on).toBe(true);
  });

  it('are off, saying so, when git is not on PATH', async () => {
    const availability = await openForApp(sb.repo('nogit'), configDefaults(), { ...sb.env, PATH: sb.folder('empty-bin') });
    expect(availability).toEqual({ on: false, reason: 'git not found (install git)' });
  });

  it('are off in the home folder, and when config.json turns them off', async () => {
    expect(await openForApp(sb.home, configDefaults(), sb.env)).toMatchObject({ on: false, reason: 'this is your home folder' });
    expect(await openForApp(sb.repo('disabled'), { ...configDefaults(), checkpointing_disabled: true }, sb.env)).toMatchObject({ on: false, reason: 'disabled in config.json' });
  });
});
