// The store's name is a SHA-256 computed without node:crypto (src/shared/sha256.ts): it must
// be node:crypto's to the bit, or a project would lose its store.
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/shared/sha256.js';

const nodeSha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('sha256Hex', () => {
  it("is node:crypto's for the known vectors, every length across the block boundaries, and paths with any characters", () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    for (let length = 0; length <= 200; length++) {
      const text = 'p'.repeat(length);
      expect(sha256Hex(text), `length ${length}`).toBe(nodeSha256(text));
    }
    const paths = ['/home/anna/work/api', '/tmp/rewind test/ünïcødé/项目', '/x/\u{1F600}/emoji', `/long/${'a'.repeat(5000)}`];
    for (let n = 0; n < 200; n++) paths.push(`/${randomBytes(1 + (n % 97)).toString('base64')}/${String.fromCodePoint(0x80 + n * 37)}`);
    for (const text of paths) expect(sha256Hex(text), text).toBe(nodeSha256(text));
  });
});
