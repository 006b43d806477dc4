import { MESSAGES } from '@wildtrack/contract';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { i18n, setLang } from '.';
import enUS from './en-US.json';
import zhCN from './zh-CN.json';

function flatten(value: unknown, prefix = ''): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { [prefix]: value };
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) Object.assign(out, flatten(child, prefix ? `${prefix}.${key}` : key));
  return out;
}

describe('message files', () => {
  it('zh-CN and en-US hold the same keys', () => {
    const zh = Object.keys(flatten(zhCN)).sort();
    const en = Object.keys(flatten(enUS)).sort();
    expect(zh.filter((k) => !en.includes(k))).toEqual([]);
    expect(en.filter((k) => !zh.includes(k))).toEqual([]);
    expect(zh.length).toBeGreaterThan(20);
  });

  it('every text is a non-empty string with the same placeholders in both languages', () => {
    const zh = flatten(zhCN);
    const en = flatten(enUS);
    const placeholders = (text: unknown) => [...String(text).matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(zh)) {
      expect(typeof zh[key], key).toBe('string');
      expect(String(zh[key]).trim(), key).not.toBe('');
      expect(String(en[key]).trim(), key).not.toBe('');
      expect(placeholders(en[key]), key).toEqual(placeholders(zh[key]));
    }
  });
});

describe('i18next', () => {
  it('switches language with the toggle state and translates contract validation keys', () => {
    setLang('zh');
    expect(i18n.t('route.device')).toBe('设备管理');
    // dayjs came with the signed-in part (i18n/dates.ts) and follows the language
    expect(dayjs.locale()).toBe('zh-cn');
    expect(i18n.t('validation.password.rule', { ns: 'contract' })).toBe(MESSAGES['validation.password.rule'].zh);
    setLang('en');
    expect(i18n.language).toBe('en-US');
    expect(i18n.t('route.device')).toBe('Device management');
    expect(dayjs.locale()).toBe('en');
    expect(i18n.t('validation.password.simple', { ns: 'contract' })).toBe(MESSAGES['validation.password.simple'].en);
    expect(i18n.t('auth.locked', { ns: 'contract', minutes: 15 })).toContain('15 minutes');
    expect(document.documentElement.lang).toBe('en-US');
    expect(window.sessionStorage.getItem('wildtrack_lang')).toBe('en');
  });
});
