import { describe, expect, it } from 'vitest';
import { terminalDescription } from './terminal';

describe('x-terminal', () => {
  it('names the client, its version tag and the browser, in printable ASCII', () => {
    const ua = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    expect(terminalDescription(ua, 'Linux')).toBe('Wildtrack-Web/1.1.6 (Chrome 131; Linux)');
    expect(terminalDescription('Mozilla/5.0 Firefox/128.0', '平台')).toBe('Wildtrack-Web/1.1.6 (Firefox 128; ??)');
  });
});
