export { call, callReply, upload, queryString, type CallOptions, type Reply } from './client';
export { ApiError, isApiError, isIgnorable, type ApiErrorKind } from './errors';
export { uploadImage } from './upload';
