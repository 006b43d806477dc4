import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, Code, VersionInfoSchema } from '@wildtrack/contract';
import pkg from '../../../package.json' with { type: 'json' };
import { createTestApp, type TestApp } from '../../test/helper.js';
import { VersionService } from './service.js';

describe('version page', () => {
  it('gives the tag, the changes in the language asked and the region\'s download host', () => {
    const v = new VersionService(
      { downloadHosts: { en: 'https://eu.example/', na: 'https://na.example', other: 'https://cn.example' }, build: 'abc123' },
      [{ version: '2.0.0', date: '2026-11-25', zh: ['新'], en: ['New'] }],
      '2.0.0',
    );
    const na = v.info('en', 'na');
    expect(na).toMatchObject({ Version: '2.0.0', Build: 'abc123', Region: 'na', Changes: [{ Version: '2.0.0', Date: '2026-11-25', Items: ['New'] }] });
    expect(na.Downloads.every((d) => d.Url.startsWith('https://na.example/'))).toBe(true);
    expect(v.info('zh', 'en').Downloads[0]!.Url).toBe('https://eu.example/wildtrack/android/wildtrack-2.0.0.apk');
    expect(v.info('zh', 'other').Changes[0]!.Items).toEqual(['新']);
  });

  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { VERSION_DOWNLOAD_HOST_NA: 'https://na.dl.test', WILDTRACK_BUILD: 'b42' });
  });
  afterAll(async () => t.close());

  it('is a signed-in call answering from the shipped changelog and the configured hosts', async () => {
    const { token } = await t.userWithToken();
    const r = await t.call(calls.GetVersionInfo.path, { region: 'na' }, { token, lang: 'zh' });
    expect(r.body.Code).toBe(Code.Success);
    const data = VersionInfoSchema.parse(r.body.Data);
    expect(data.Version).toBe(pkg.version);
    expect(data.Build).toBe('b42');
    expect(data.Changes.length).toBeGreaterThan(0);
    expect(data.Changes[0]!.Items.join('')).toMatch(/[\u4e00-\u9fff]/);
    expect(data.Downloads.map((d) => d.Url.slice(0, 18))).toEqual(['https://na.dl.test', 'https://na.dl.test']);
    const other = VersionInfoSchema.parse((await t.call(calls.GetVersionInfo.path, {}, { token })).body.Data);
    expect(other.Region).toBe('other');
    expect(other.Downloads[0]!.Url.startsWith('https://download.wildtrack.app/')).toBe(true);
    expect(other.Changes[0]!.Items.join('')).not.toMatch(/[\u4e00-\u9fff]/);

    expect((await t.call(calls.GetVersionInfo.path, { region: 'eu' }, { token })).body).toMatchObject({ Code: Code.Invalid, Data: { Field: 'region' } });
    expect((await t.call(calls.GetVersionInfo.path, { region: 'na' })).body.Code).toBe(Code.SessionExpired);
  });
});
