export { call, callBinary, callReply, upload, queryString, type CallOptions, type Reply } from './client';
export { attachmentName, download } from './download';
export { ApiError, isApiError, isIgnorable, type ApiErrorKind } from './errors';
export { uploadImage } from './upload';
