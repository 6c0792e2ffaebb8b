/**
 * Where an agent's conversation stood at one of its hook calls, as its adapter reads it
 * from the payload: what a checkpoint keeps of the conversation (layer 2).
 */
export interface ConversationPoint {
  /** The agent's transcript (its session file), absolute. */
  transcript: string;
  /** The agent's own session id. */
  session?: string;
  /** The prompt that started the turn the call is in: a restore goes back to just before it. */
  promptId?: string;
  /**
   * The call comes inside a turn whose prompt the payload does not name (Gemini CLI's tool
   * calls): a restore goes back to just before the last prompt the transcript holds.
   */
  inTurn?: boolean;
}

/**
 * A conversation restore that was made: the conversation kept at checkpoint `to` brought
 * back, when checkpoint `after` was the newest (the turns checkpointed up to then that it
 * did not hold left the conversation; those checkpointed later came after it).
 */
export interface ConversationRestored {
  to: number;
  after: number;
}
