/**
 * Files that are never checkpointed, whatever their size: disk images, model weights,
 * video. Seeded once into the shadow's info/exclude, where the user may edit them.
 */
export const heavyPatterns: readonly string[] = [
  '*.iso',
  '*.img',
  '*.dmg',
  '*.qcow2',
  '*.vmdk',
  '*.vdi',
  '*.vhd',
  '*.vhdx',
  '*.ova',
  '*.safetensors',
  '*.gguf',
  '*.ggml',
  '*.onnx',
  '*.ckpt',
  '*.pt',
  '*.pth',
  '*.h5',
  '*.mp4',
  '*.mov',
  '*.mkv',
  '*.avi',
];
