import type { FastifyBaseLogger } from 'fastify';
import type { Mailer } from './mail-transport.js';
import type { OutboxRepository } from './outbox-repository.js';
import type { SmsProvider } from './sms.js';
import { now as clockNow } from '../lib/clock.js';

/**
 * Where the codes go (issue 17 item 3): e-mail through the SMTP transport, SMS through the configured
 * gateway; whichever of the two is not configured writes to the operator's outbox instead
 * (`wildtrack outbox`), which the server says once at start (describe()).
 */
export class Delivery {
  constructor(
    private readonly mailer: Mailer,
    private readonly smsGateway: SmsProvider | undefined,
    private readonly outbox: OutboxRepository,
  ) {}

  /** One line per channel for the start log: where its messages go. */
  describe(): string[] {
    return [
      this.mailer.enabled ? 'e-mail codes: sent through SMTP_URL' : 'e-mail codes: SMTP_URL unset, written to the outbox (read it with `wildtrack outbox`)',
      this.smsGateway ? `SMS codes: sent through the ${this.smsGateway.name} gateway (SMS_URL)` : 'SMS codes: SMS_URL unset, written to the outbox (read it with `wildtrack outbox`)',
    ];
  }

  /** Whether a message of the channel only goes to the outbox (a quick local write, not a gateway). */
  queues(channel: 'email' | 'phone'): boolean {
    return channel === 'email' ? !this.mailer.enabled : !this.smsGateway;
  }

  /** Forgets outbox messages older than a day (their codes died after 5 minutes). */
  sweep(now = clockNow()): Promise<number> {
    return this.outbox.deleteBefore(now - 24 * 3_600_000);
  }

  async email(to: string, subject: string, text: string): Promise<void> {
    if (this.mailer.enabled) await this.mailer.send({ to, subject, text });
    else await this.outbox.add({ channel: 'email', address: to, subject, text, created_at: clockNow() });
  }

  async sms(countryCode: string, phone: string, text: string): Promise<void> {
    if (this.smsGateway) await this.smsGateway.send(countryCode, phone, text);
    else await this.outbox.add({ channel: 'sms', address: `+${countryCode} ${phone}`, subject: '', text, created_at: clockNow() });
  }
}

/** Logs the channels once. */
export function announceDelivery(delivery: Delivery, log: FastifyBaseLogger): void {
  for (const line of delivery.describe()) log.info(line);
}
