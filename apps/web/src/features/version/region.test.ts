import { describe, expect, it } from 'vitest';
import { versionRegion } from './region';

describe('versionRegion', () => {
  it('picks na for a North American locale whatever the language, en for English elsewhere, other for the rest', () => {
    expect(versionRegion('en', ['en-US'])).toBe('na');
    expect(versionRegion('zh', ['zh', 'en-CA'])).toBe('na');
    expect(versionRegion('en', ['zh-CN', 'en-CA'])).toBe('en');
    expect(versionRegion('zh', ['es-MX'])).toBe('na');
    expect(versionRegion('en', ['en-GB', 'en'])).toBe('en');
    expect(versionRegion('en', ['zh-Hans-CN'])).toBe('en');
    expect(versionRegion('zh', ['zh-CN'])).toBe('other');
    expect(versionRegion('zh', [])).toBe('other');
  });
});
