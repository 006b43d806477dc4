import type { FastifyRequest } from 'fastify';
import { Header, type Lang, LanguageId, message } from '@wildtrack/contract';

/** The language of `Msg`: the language-id header (2052 / 1033), else Accept-Language, else English. */
export function requestLang(request: FastifyRequest): Lang {
  const id = request.headers[Header.lang];
  if (id === String(LanguageId.zh)) return 'zh';
  if (id === String(LanguageId.en)) return 'en';
  const accept = request.headers['accept-language'];
  return typeof accept === 'string' && /^zh\b/i.test(accept.trim()) ? 'zh' : 'en';
}

export function t(request: FastifyRequest, key: string, params?: Record<string, string | number>): string {
  return message(request.lang, key, params);
}
