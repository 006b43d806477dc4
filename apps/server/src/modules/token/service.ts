import { createHash, randomBytes } from 'node:crypto';
import { Code, type calls, formatTime, type Lang, PERSONAL_TOKEN_MAX, PERSONAL_TOKEN_RATE_PER_MINUTE, type PersonalToken, type PersonalTokenState } from '@wildtrack/contract';
import type { z } from 'zod';
import type { Caller } from '../../http/caller.js';
import { AppError } from '../../http/errors.js';
import type { RateCounters } from '../../shared-state/index.js';
import { now as clockNow } from '../../lib/clock.js';
import type { PersonalTokenRow, TokenRepository } from './repository.js';

type CreateBody = z.output<typeof calls.CreatePersonalToken.body>;

const DAY_MS = 86_400_000;
const RATE_WINDOW_MS = 60_000;
/** What starts every secret, so that one found in a script or a log is known for what it is. */
const SECRET_PREFIX = 'wt_';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function stateOf(row: PersonalTokenRow, now: number): PersonalTokenState {
  if (row.revoked_at !== null) return 'revoked';
  if (row.expires_at !== null && Number(row.expires_at) <= now) return 'expired';
  return 'active';
}

function recordOf(row: PersonalTokenRow, zone: string, now: number): PersonalToken {
  const time = (v: number | null) => (v === null ? '' : formatTime(Number(v), zone));
  return {
    IdStr: String(row.id),
    Name: row.name,
    Hint: row.hint,
    CreateTime: time(row.created_at),
    ExpireTime: time(row.expires_at),
    LastUsedTime: time(row.last_used_at),
    RevokeTime: time(row.revoked_at),
    State: stateOf(row, now),
  };
}

/** Who a direct-read request reads as: the token and the caller the device rule is asked for. */
export interface TokenCaller {
  tokenId: number;
  caller: Caller;
}

/** A direct-read answer other than the data: the HTTP status, a sentence, and the seconds to wait (429). */
export class ReadRefusal extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 429,
    readonly messageKey: string,
    readonly params: Record<string, string | number> = {},
    readonly retryAfter?: number,
  ) {
    super(messageKey);
    this.name = 'ReadRefusal';
  }
}

/**
 * Personal access tokens: made, listed and revoked by their user; a direct-read request's Basic
 * credentials (the user's login name and the secret) resolved to a caller here. The secret is 32 random
 * bytes, answered once; the table keeps its SHA-256 (a request is found by it) and its last characters.
 */
export class TokenService {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly counters: RateCounters,
    private readonly ratePerMinute = PERSONAL_TOKEN_RATE_PER_MINUTE,
  ) {}

  async create(caller: Caller, body: CreateBody, now = clockNow()): Promise<PersonalToken & { Secret: string }> {
    const userId = caller.session.userId;
    if ((await this.tokens.countActive(userId, now)) >= PERSONAL_TOKEN_MAX) throw new AppError(Code.Failed, 'token.tooMany', { max: PERSONAL_TOKEN_MAX });
    const secret = SECRET_PREFIX + randomBytes(32).toString('base64url');
    const days = body.expiresInDays ?? 0;
    const row = { user_id: userId, name: body.purpose, token_hash: sha256(secret), hint: secret.slice(-4), created_at: now, expires_at: days > 0 ? now + days * DAY_MS : null };
    const id = await this.tokens.insert(row);
    return { ...recordOf({ ...row, id, revoked_at: null, last_used_at: null }, caller.zone, now), Secret: secret };
  }

  async list(caller: Caller, now = clockNow()): Promise<{ List: PersonalToken[] }> {
    const rows = await this.tokens.list(caller.session.userId);
    return { List: rows.map((r) => recordOf(r, caller.zone, now)) };
  }

  /** Revokes the caller's token (again: nothing changes); another user's is "no such token". */
  async revoke(caller: Caller, idStr: string, now = clockNow()): Promise<void> {
    const row = await this.tokens.find(Number(idStr), caller.session.userId);
    if (!row) throw new AppError(Code.NotFound, 'token.notFound');
    await this.tokens.revoke(Number(row.id), now);
  }

  /**
   * The caller of a direct-read request from its Authorization header (Basic: login name and secret):
   * 401 without one, for a wrong pair, or a revoked or expired token, or a disabled user; 429 past the
   * token's requests a minute (counted in the shared state, across processes). Marks the token used.
   */
  async authenticate(authorization: string | undefined, lang: Lang, now = clockNow()): Promise<TokenCaller> {
    const unauthorized = () => new ReadRefusal(401, 'directRead.unauthorized');
    const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '');
    if (!m) throw unauthorized();
    const pair = Buffer.from(m[1]!, 'base64').toString('utf8');
    const colon = pair.indexOf(':');
    if (colon < 0) throw unauthorized();
    const userName = pair.slice(0, colon).trim().toLowerCase();
    const secret = pair.slice(colon + 1);
    if (!secret.startsWith(SECRET_PREFIX)) throw unauthorized();
    const t = await this.tokens.byHash(sha256(secret));
    if (!t || t.user_name_key !== userName || t.revoked_at !== null || (t.expires_at !== null && t.expires_at <= now)) throw unauthorized();
    if (this.ratePerMinute > 0) {
      const { hits, resetAt } = await this.counters.hit(`token:${t.id}`, now, RATE_WINDOW_MS);
      if (hits > this.ratePerMinute) {
        const seconds = Math.max(1, Math.ceil((resetAt - now) / 1000));
        throw new ReadRefusal(429, 'directRead.rateLimited', { seconds }, seconds);
      }
    }
    await this.tokens.touch(t.id, now);
    return {
      tokenId: t.id,
      caller: { session: { sessionId: 0, userId: t.user_id, orgId: t.org_id }, lang, zone: t.time_zone, orgName: t.org_name },
    };
  }
}
