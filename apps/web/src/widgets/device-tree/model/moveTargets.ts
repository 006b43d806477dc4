import { EXPERIENCE_FOLDER_ID, ROOT_FOLDER_ID, SHARED_FOLDER_PREFIX, type FolderOnly } from '@wildtrack/contract';

/** The move-to picker's folders (§2.4). */

export interface MoveTargetNode {
  key: string;
  value: string;
  title: string;
  disabled?: boolean;
  children: MoveTargetNode[];
}

/**
 * The folders a device or folder may move to (§2.4): the organisation's folders, never the experience
 * folder nor a shared one, and for a folder never itself or anything below it (those branches are left
 * out). The current place is shown but disabled.
 */
export function moveTargets(folders: readonly FolderOnly[], opts: { moving?: string; current?: string; rootLabel: string }): MoveTargetNode[] {
  const build = (folder: FolderOnly): MoveTargetNode | null => {
    if (folder.IdStr === opts.moving) return null;
    if (folder.IdStr === EXPERIENCE_FOLDER_ID || folder.IdStr.startsWith(SHARED_FOLDER_PREFIX)) return null;
    const node: MoveTargetNode = {
      key: folder.IdStr,
      value: folder.IdStr,
      title: folder.IdStr === ROOT_FOLDER_ID ? opts.rootLabel : folder.Name,
      children: folder.Folders.map(build).filter((n): n is MoveTargetNode => n !== null),
    };
    if (folder.IdStr === opts.current) node.disabled = true;
    return node;
  };
  return folders.map(build).filter((n): n is MoveTargetNode => n !== null);
}
