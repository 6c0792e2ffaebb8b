const userErrorTag = Symbol.for('agent-rewind.UserError');

/**
 * Errors a user can act on. The message is one line that says what went wrong and what to
 * do next; the CLI prints it without a stack and exits with `exitCode`.
 */
export class UserError extends Error {
  readonly exitCode: number;
  /** Recognised across module copies (the app is bundled): see isUserError. */
  readonly [userErrorTag] = true;

  constructor(message: string, options: { exitCode?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'UserError';
    this.exitCode = options.exitCode ?? 1;
  }
}

/** Whether `error` is a UserError, also one thrown by the bundled app's own copy of the class. */
export function isUserError(error: unknown): error is UserError {
  return error instanceof Error && (error as unknown as Record<symbol, unknown>)[userErrorTag] === true;
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
