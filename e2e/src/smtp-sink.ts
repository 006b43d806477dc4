import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll } from 'vitest';

/** A message the sink received, as mailparser read it. */
export interface SunkMail {
  to: string;
  subject: string;
  text: string;
}

/**
 * A local SMTP sink for a spec file: registers the hooks that start it before the file's tests and stop it
 * after them; `env.SMTP_URL` points at it once started. Call it before serverAndBrowser({ env }), so that its
 * hook runs first and the server starts with SMTP_URL set. `mails` fills as messages arrive.
 */
export function smtpSink(): { mails: SunkMail[]; env: Record<string, string> } {
  const mails: SunkMail[] = [];
  const env: Record<string, string> = {};
  const sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, _session, done) {
      simpleParser(stream)
        .then((m) => {
          mails.push({ to: String((m.to as { text: string } | undefined)?.text ?? ''), subject: m.subject ?? '', text: m.text ?? '' });
          done();
        })
        .catch(done);
    },
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
    env.SMTP_URL = `smtp://127.0.0.1:${(sink.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => sink.close(() => resolve()));
  });
  return { mails, env };
}
