/**
 * Errors a user can act on. The message is one line that says what went wrong and what to
 * do next; the CLI prints it without a stack and exits with `exitCode`.
 */
export class UserError extends Error {
  readonly exitCode: number;

  constructor(message: string, options: { exitCode?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'UserError';
    this.exitCode = options.exitCode ?? 1;
  }
}

/** A command line the program cannot understand: exit 2, like getopt-style tools. */
export class UsageError extends UserError {
  constructor(message: string) {
    super(message, { exitCode: 2 });
    this.name = 'UsageError';
  }
}

/** Something we did wrong, not the user: printed with its stack so it can be reported. */
export class BugError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'BugError';
  }
}

/** The message of any thrown value, for wrapping. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
