import { AVATAR_MAX_BYTES, AVATAR_TYPES } from '@wildtrack/contract';
import { Upload, type UploadFile } from 'antd';
import type { TFunction } from 'i18next';

/** What accept= offers in the file chooser: the §5 picture types. */
export const PICTURE_ACCEPT = '.jpg,.jpeg,.png,image/jpeg,image/png';

/**
 * The §5 avatar and picture rule as the browser can check it before sending (the server checks the
 * content again): 'type' for a name that is not jpg/jpeg/png, 'size' for 20 MB or more, null when fine.
 */
export function pictureFault(file: { name: string; size: number }): 'type' | 'size' | null {
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!file.name.includes('.') || !(AVATAR_TYPES as readonly string[]).includes(ext)) return 'type';
  if (file.size >= AVATAR_MAX_BYTES) return 'size';
  return null;
}

/** The address of an upload that succeeded (Code 1000): the server's answer, or the url it was given. */
export function uploadedUrl(file: UploadFile): string | undefined {
  if (file.status !== 'done') return undefined;
  return file.url ?? (file.response as { Url?: string } | undefined)?.Url;
}

/** §8 Uploads: only a reply with Code 1000 counts; failed ones leave the list. */
export function keepSucceeded(list: UploadFile[]): UploadFile[] {
  return list.filter((f) => f.status !== 'error');
}

/**
 * An Upload's beforeUpload for §5 pictures: a wrong type or too large a file is said (the server's own
 * messages) and left out of the list; any other goes up.
 */
export function pictureGate(t: TFunction, say: (text: string) => void) {
  return (file: { name: string; size: number }): boolean | typeof Upload.LIST_IGNORE => {
    const fault = pictureFault(file);
    if (!fault) return true;
    say(t(fault === 'type' ? 'upload.wrongType' : 'upload.tooLarge', { ns: 'contract' }));
    return Upload.LIST_IGNORE;
  };
}
