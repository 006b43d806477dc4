import { defineCall, EmptyBody } from '@wildtrack/contract';
import { z } from 'zod';
import { upload } from './client';

/**
 * §7.2 /api/Image/Upload: multipart with `file` and `description`, answered with Data {Url}. The
 * contract has no definition of it yet (it is not a JSON call); this one keeps its shape in one place
 * until it moves there.
 */
export const ImageUpload = defineCall({
  path: '/api/Image/Upload',
  auth: 'session',
  body: EmptyBody,
  data: z.object({ Url: z.string() }),
  summary: 'Uploads one picture (jpg, jpeg or png, at most 20 MB) and answers its URL.',
});

export async function uploadImage(file: Blob, description: string, fileName = 'image.jpg'): Promise<string> {
  const form = new FormData();
  form.append('file', file, file instanceof File ? file.name : fileName);
  form.append('description', description);
  const data = await upload(ImageUpload, form, { loading: false });
  return data.Url;
}
