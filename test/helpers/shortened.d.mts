import type { Injected } from '../../src/shared/seams.js';

export function shortened(env: NodeJS.ProcessEnv): Pick<Injected, 'waits' | 'now'>;
