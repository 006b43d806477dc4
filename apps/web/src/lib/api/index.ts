export { call, callReply, type CallOptions, type Reply } from './client';
export { ApiError, isApiError, isIgnorable, type ApiErrorKind } from './errors';
