/**
 * The admin spec's 'Error: {message}!' for a displayable server message. The
 * server's messages are sentences with their own full stop, so the stop is
 * replaced by the '!' rather than doubled ('… of this trial.!').
 */
export function trialUserErrorText(message: string): string {
  return `Error: ${message.trim().replace(/[.!?]+$/, '')}!`;
}
