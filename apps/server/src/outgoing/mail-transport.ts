import nodemailer from 'nodemailer';
import type { Config } from '../config.js';

/** One message the server sends: plain text, in the recipient's language (the caller chooses it). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends e-mail, or says it is off (no SMTP_URL): callers tell the user or the operator instead of failing. */
export interface Mailer {
  readonly enabled: boolean;
  send(message: MailMessage): Promise<void>;
}

/**
 * The mail transport made from the configuration: nodemailer over SMTP_URL (smtp:// or smtps://, with
 * user and password in the URL when the relay needs them), From MAIL_FROM; "e-mail off" when SMTP_URL is
 * unset, whose send throws so that a caller that forgot to check `enabled` fails loudly, not silently.
 */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom'>): Mailer {
  if (!config.smtpUrl) {
    return {
      enabled: false,
      send: () => Promise.reject(new Error('e-mail is off: SMTP_URL is not set')),
    };
  }
  // Short timeouts: a relay out of reach must not hold a request (a code send) for nodemailer's minutes.
  const url = new URL(config.smtpUrl);
  const transport = nodemailer.createTransport({
    host: url.hostname,
    port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
    secure: url.protocol === 'smtps:',
    ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } } : {}),
    // a local relay or test sink without TLS: don't insist on STARTTLS unless the URL asks (?requireTLS=1)
    requireTLS: url.searchParams.get('requireTLS') === '1',
    ignoreTLS: url.searchParams.get('ignoreTLS') === '1',
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    enabled: true,
    async send(message) {
      await transport.sendMail({ from: config.mailFrom, to: message.to, subject: message.subject, text: message.text });
    },
  };
}
