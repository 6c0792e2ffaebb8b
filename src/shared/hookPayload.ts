/** Biggest hook payload read whole (a Write of a huge file carries all of it); a larger one is cut. */
export const maxHookPayloadBytes = 64 * 1024 * 1024;
