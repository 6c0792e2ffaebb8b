/** DESIGN's words for a project without checkpoints: the CLI, the app and the picker all say this. */
export const noCheckpointsYet = 'no checkpoints yet — taken on session start, Enter and file changes';
