/** DESIGN's words for a project without checkpoints: the CLI, the app and the picker all say this. */
export const noCheckpointsYet = 'no checkpoints yet — they are taken before each file-modifying tool';
