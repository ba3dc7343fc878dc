/** Why a call to the language model did not give an answer; each says it in words a log or a user can act on. */
export class LlmError extends Error {
  constructor(
    message: string,
    readonly code: 'not_configured' | 'budget' | 'http' | 'timeout' | 'stream' | 'aborted',
    readonly status?: number,
  ) {
    super(message);
    this.name = 'LlmError';
  }
}

export const notConfigured = () =>
  new LlmError('AI answers aren’t enabled on this server.', 'not_configured');
