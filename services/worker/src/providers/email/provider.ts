/** One e-mail as a provider sends it. */
export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
}

/** Where e-mail goes: the outbox (nowhere) or a real mail server. */
export interface EmailProvider {
  /** Recorded on the row as `provider`. */
  readonly name: 'outbox' | 'smtp';
  send(email: OutgoingEmail): Promise<void>;
  close(): Promise<void>;
}

/** The mail server refused this message for good (a bad address): retrying cannot help. */
export class TerminalEmailError extends Error {}
