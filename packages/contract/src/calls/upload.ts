import { z } from 'zod';
import { defineCall, EmptyBody } from '../call.js';
import { IMAGE_UPLOAD_PATH } from '../constants.js';

/**
 * §7.2 /api/Image/Upload: a multipart body with `file` (jpg, jpeg or png, under 20 MB) and
 * `description`, signed over an empty body (docs/api.md); Data is the URL the image is served from.
 */
export const ImageUpload = defineCall({
  path: IMAGE_UPLOAD_PATH,
  auth: 'session',
  access: 'session',
  body: EmptyBody,
  data: z.object({ Url: z.string() }),
  summary: 'Uploads one picture (jpg, jpeg or png, at most 20 MB) as multipart file + description; answers its URL.',
});
