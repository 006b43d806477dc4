import { CLIENT_VERSION, Code, type VersionInfo } from '@wildtrack/contract';
import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/providers';
import { clearSession } from '../../lib/session';
import { callsTo, envelope, fakeServer } from '../../test/server';
import { signInForTest } from '../../test/session';
import { VersionDialog } from './components/VersionDialog';

const info: VersionInfo = {
  Version: '0.1.0',
  Build: 'abc1234',
  Region: 'na',
  Changes: [{ Version: '0.1.0', Date: '2026-11-25', Items: ['User log for the primary user.', 'Version page.'] }],
  Downloads: [
    { Platform: 'android', Url: 'https://na.dl.test/wildtrack/android/wildtrack-0.1.0.apk' },
    { Platform: 'ios', Url: 'https://na.dl.test/wildtrack/ios/' },
  ],
};

beforeEach(() => signInForTest());
afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
});

describe('the version page', () => {
  it('asks for the browser region and shows both versions, the changes and the downloads', async () => {
    vi.stubGlobal('navigator', { ...navigator, language: 'en-US', languages: ['en-US', 'en'] });
    const server = fakeServer({ '/api/Version/Get': () => envelope(Code.Success, '', info) });
    render(
      <AppProviders>
        <VersionDialog open onClose={() => undefined} />
      </AppProviders>,
    );
    expect((await screen.findByTestId('version-server')).textContent).toBe('0.1.0 (abc1234)');
    expect(screen.getByTestId('version-client').textContent).toBe(CLIENT_VERSION);
    expect(screen.getByText('North America')).toBeTruthy();
    expect(screen.getByText('User log for the primary user.')).toBeTruthy();
    expect(screen.getByTestId('download-android').getAttribute('href')).toBe(info.Downloads[0]!.Url);
    expect(screen.getByTestId('download-ios').getAttribute('href')).toBe(info.Downloads[1]!.Url);
    expect(JSON.parse(callsTo(server, '/api/Version/Get')[0]!.body as string)).toEqual({ region: 'na' });
  });
});
