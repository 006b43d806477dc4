import { EXPERIENCE_FOLDER_ID } from '@wildtrack/contract';
import type { FolderEntry } from './treeIndex';

type T = (key: string, options?: Record<string, unknown>) => string;

/**
 * A folder's name as the user reads it: the root is "the list", the experience folder gets its
 * localised label (§3), a shared folder says who shared it.
 */
export function folderLabel(folder: Pick<FolderEntry, 'kind' | 'id' | 'name' | 'sharedBy' | 'parentId'>, t: T): string {
  if (folder.kind === 'root') return t('tree.root');
  if (folder.id === EXPERIENCE_FOLDER_ID) return t('tree.experience');
  if (folder.kind === 'shared' && folder.parentId === null) return t('tree.sharedBy', { name: folder.sharedBy || folder.name });
  return folder.name;
}
