import { createHash } from 'node:crypto';

/** The SHA-256 of `data` (text as UTF-8), as 64 lowercase hex digits. */
export const sha256Hex = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
