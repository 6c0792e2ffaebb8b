// The engine's files are written the one way every layer writes them (shared/atomicFile.ts).
export { writeFileAtomic } from '../../shared/atomicFile.js';
