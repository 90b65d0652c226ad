/**
 * The service's outgoing mail, as narrow as it is used: one plain-text message to one address.
 * The SMTP implementation is src/mail/smtp-mailer.ts; the use cases see only this.
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** resolves once the server accepted the message; rejects when it did not */
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}
