import { z } from 'zod';

/** Who may make a call: anyone (`public`) or a signed-in user (`session`). */
export type CallAccess = 'public' | 'session';

/** One console call: its path under /prod-api, who may make it, and the schemas of its body and Data. */
export interface CallDef<B extends z.ZodType = z.ZodType, D extends z.ZodType = z.ZodType, A extends CallAccess = CallAccess> {
  path: string;
  /** POST (JSON body) for every call but one: GET sends the body's fields as the query string (§7.1). */
  method?: 'POST' | 'GET';
  /** `public` calls need no session (they are still signed with the empty-token key). */
  auth: A;
  body: B;
  data: D;
  /** Body fields sealed to the server's public key (see wire.ts). */
  sealed?: readonly string[];
  /** 'long' uses the 120 s timeout of §7.1 instead of 30 s. */
  timeout?: 'normal' | 'long';
  summary: string;
}

export function defineCall<B extends z.ZodType, D extends z.ZodType, A extends CallAccess>(def: CallDef<B, D, A>): CallDef<B, D, A> {
  return def;
}

export type CallBody<C> = C extends CallDef<infer B, z.ZodType> ? z.input<B> : never;
export type CallData<C> = C extends CallDef<z.ZodType, infer D> ? z.output<D> : never;

/** Calls without a body accept an absent body or an empty object. */
export const EmptyBody = z.object({}).nullish();

/** A switch: 1 on, 0 off; anything else is refused with validation.onOff. */
export const ZeroOne = z.union([z.literal(0), z.literal(1)], { error: 'validation.onOff' });
