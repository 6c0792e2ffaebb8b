import type { CheckpointRecord } from './record.js';

/** A checkpoint commit's message: the label (or trigger) as subject, then trailers. */
export function checkpointMessage(record: Pick<CheckpointRecord, 'id' | 'label' | 'trigger'>): string {
  const subject = (record.label || record.trigger).replace(/\s+/g, ' ').trim() || 'checkpoint';
  return `${subject}\n\nRewind-Checkpoint: ${record.id}\nRewind-Trigger: ${record.trigger}\n`;
}
