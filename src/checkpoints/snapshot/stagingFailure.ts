import fs from 'node:fs';
import path from 'node:path';

/**
 * What went wrong when git staged the work tree (`add -A --ignore-errors`, or the robust
 * `update-index` run), from its stderr and a look at the files it names. Every path is
 * checked on disk before anything acts on it: a name git printed raw (a newline in it,
 * say) that cannot be read back is never acted on by guess.
 */
export interface StagingFailure {
  /** Nested repositories without a commit (git cannot record them as gitlinks yet). */
  unborn: string[];
  /** Files git cannot add: FIFOs, sockets, devices, files it may not read. path -> why. */
  leftOut: Record<string, string>;
  /** Something came and went while git walked or read: running again settles it. */
  transient: boolean;
}

export const notRegularReason = 'not a regular file, symlink or folder (a FIFO, socket or device): left out';
export const unreadableReason = 'cannot be read (permission denied): left out';

const unbornPattern = /^error: '(.+)\/' does not have a commit checked out$/gm;
const notRegularPatterns = [/^error: (.+): can only add regular files, symbolic links or git-directories$/gm, /^error: (.+): unsupported file type$/gm];
const openPattern = /^error: open\("(.+)"\): (.+)$/gm;
const namedPatterns = [/^error: unable to index file '(.+)'$/gm, /^fatal: unable to stat '(.+)': .+$/gm, /^fatal: Unable to process path (.+)$/gm, /^error: short read while indexing (.+)$/gm, /^error: readlink\("(.+)"\): .+$/gm];

function matches(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((match) => match[1] ?? '').filter(Boolean);
}

function lstatOf(file: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(file);
  } catch {
    return undefined;
  }
}

function isSpecial(stat: fs.Stats): boolean {
  return !stat.isFile() && !stat.isSymbolicLink() && !stat.isDirectory();
}

/** Whether this process can open the file for reading now. */
export function canRead(file: string): boolean {
  try {
    fs.closeSync(fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK));
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads a failed staging's stderr. Returns undefined when it holds nothing this module
 * knows how to settle (the caller reports the failure as it is).
 */
export function classifyStagingFailure(stderr: string, root: string): StagingFailure | undefined {
  const failure: StagingFailure = { unborn: matches(stderr, unbornPattern), leftOut: {}, transient: false };
  const named = new Set<string>();
  for (const pattern of notRegularPatterns) for (const file of matches(stderr, pattern)) named.add(file);
  for (const match of stderr.matchAll(openPattern)) if (match[1]) named.add(match[1]);
  for (const pattern of namedPatterns) for (const file of matches(stderr, pattern)) named.add(file);
  for (const file of named) {
    const stat = lstatOf(path.join(root, file));
    if (!stat) {
      // Gone (or a name printed so it cannot be read back): a new walk no longer meets it.
      failure.transient = true;
    } else if (isSpecial(stat)) {
      failure.leftOut[file] = notRegularReason;
    } else if (stat.isFile() && !canRead(path.join(root, file))) {
      failure.leftOut[file] = unreadableReason;
    } else {
      // There and readable: it changed while git read it.
      failure.transient = true;
    }
  }
  const known = failure.unborn.length > 0 || failure.transient || Object.keys(failure.leftOut).length > 0;
  return known ? failure : undefined;
}

/** Whether git stopped because a file vanished between its directory walk and its lstat (add -A dies then). */
export function vanishedMidWalk(stderr: string): boolean {
  return /^fatal: unable to stat '.+': No such file or directory$/m.test(stderr);
}

/** Whether git could not read the shadow index (damaged: rebuilt from the project and the work tree). */
export function isIndexDamaged(stderr: string): boolean {
  return /index file corrupt|index file smaller than expected|bad signature 0x[0-9a-f]+|bad index version|unknown index entry format|index uses .+ extension, which we do not understand|index entry .* is not in sorted order/i.test(stderr);
}

/** The config file git could not parse, if that is why it stopped. */
export function damagedConfigFile(stderr: string): string | undefined {
  return /bad config line \d+ in file (.+)$/m.exec(stderr)?.[1]?.trim();
}
