/**
 * The SMTP server of bench/reminders.ts, in a process of its own as a real mail relay would be:
 * accepts every message, keeps nothing but a count and when the last one came, and answers the
 * parent's `count` messages with them.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

let accepted = 0;
let lastAcceptedAt = 0;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, _session, callback) {
    stream.on('data', () => {});
    stream.on('end', () => {
      accepted += 1;
      lastAcceptedAt = Date.now();
      callback();
    });
  },
});
smtp.listen(0, '127.0.0.1', () => {
  process.send!({ port: (smtp.server.address() as AddressInfo).port });
});
process.on('message', (m: string) => {
  if (m === 'count') process.send!({ accepted, lastAcceptedAt });
  if (m === 'stop') smtp.close(() => process.exit(0));
});
