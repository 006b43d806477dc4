import { CLIENT_VERSION } from '@wildtrack/contract';

/**
 * The x-terminal header: a short description of this client with its version tag (§7.1). The original
 * added the client's public address from an outside service; Wildtrack runs offline on field-station
 * networks, so the server records the address it sees instead and nothing outside is called.
 */
export function terminalDescription(userAgent: string = navigator.userAgent, platform: string = navigatorPlatform()): string {
  const browser = browserOf(userAgent);
  const text = `Wildtrack-Web/${CLIENT_VERSION} (${browser}; ${platform || 'unknown'})`;
  // Header values must be printable ASCII.
  return text.replace(/[^\x20-\x7e]/g, '?').slice(0, 200);
}

function navigatorPlatform(): string {
  const nav = navigator as Navigator & { userAgentData?: { platform?: string } };
  return nav.userAgentData?.platform || nav.platform || '';
}

function browserOf(ua: string): string {
  const patterns: [string, RegExp][] = [
    ['Edge', /Edg\/(\d+)/],
    ['Firefox', /Firefox\/(\d+)/],
    ['Chrome', /(?:Chrome|Chromium)\/(\d+)/],
    ['Safari', /Version\/(\d+).*Safari/],
  ];
  for (const [name, re] of patterns) {
    const m = re.exec(ua);
    if (m) return `${name} ${m[1]}`;
  }
  return 'browser';
}
