/** An SMS gateway: sends one text to one phone, or throws. */
export interface SmsProvider {
  readonly name: string;
  send(countryCode: string, phone: string, text: string): Promise<void>;
}

/**
 * The HTTP gateway adapter (SMS_URL): POSTs `{"to": "+<country><phone>", "text": "…"}` as JSON and takes
 * any 2xx as sent. User and password in the URL become Basic authorisation. 10 s at most.
 */
export class HttpSmsGateway implements SmsProvider {
  readonly name = 'http';
  private readonly url: string;
  private readonly authorization: string | undefined;

  constructor(smsUrl: string) {
    const u = new URL(smsUrl);
    this.authorization = u.username ? `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64')}` : undefined;
    u.username = '';
    u.password = '';
    this.url = u.toString();
  }

  async send(countryCode: string, phone: string, text: string): Promise<void> {
    const res = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(this.authorization ? { authorization: this.authorization } : {}) },
      body: JSON.stringify({ to: `+${countryCode}${phone}`, text }),
      signal: AbortSignal.timeout(10_000),
    });
    await res.arrayBuffer().catch(() => undefined);
    if (!res.ok) throw new Error(`SMS gateway answered HTTP ${res.status}`);
  }
}
