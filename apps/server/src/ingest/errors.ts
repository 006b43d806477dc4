/** The request's nonce was used before: the request is a replay and nothing was stored. */
export class Replayed extends Error {}
