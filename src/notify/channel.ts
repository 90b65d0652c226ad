import type { MessageChannel } from '../domain/messages/kinds.ts';

/** One message as a channel sends it: what the templates made, to one recipient. */
export interface Outgoing {
  /** the same for every attempt of one message row: a repeat after a crash is recognisably the same message */
  messageId: string;
  to: string;
  subject: string;
  text: string;
  html?: string | undefined;
  /** the .ics part (text/calendar with its METHOD) */
  calendar?: { method: 'REQUEST' | 'CANCEL'; content: string } | undefined;
}

/**
 * Where messages leave the server (guest-side.md "Notifications"): SMTP (smtp.ts) and the SMS
 * gateway (sms-gateway.ts). `send` resolves once the other side accepted the message and rejects
 * otherwise; the error's text never holds the recipient (the caller records it on the row).
 */
export interface Channel {
  readonly kind: MessageChannel;
  send(m: Outgoing): Promise<void>;
  close(): Promise<void>;
}

/** The channels a worker has; a missing one is not configured (SMTP_URL, SMS_GATEWAY_URL unset). */
export type Channels = Partial<Record<MessageChannel, Channel>>;
