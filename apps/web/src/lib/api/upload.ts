import { ImageUpload } from '@wildtrack/contract';
import { upload } from './client';

export async function uploadImage(file: Blob, description: string, fileName = 'image.jpg'): Promise<string> {
  const form = new FormData();
  form.append('file', file, file instanceof File ? file.name : fileName);
  form.append('description', description);
  const data = await upload(ImageUpload, form, { loading: false });
  return data.Url;
}
