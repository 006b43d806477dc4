/**
 * Query keys shared between the tree (a shared component) and the screens that show devices, so a
 * change in one place refreshes the others: moving a device changes the tree and the device lists,
 * a remark name shows in the tree, the lists and the details.
 */
export const queryKeys = {
  /** GetTree, per time zone (last work times are text in the zone). */
  tree: ['device-tree'] as const,
  /** GetFolderTree (the move-to picker). */
  folders: ['folder-tree'] as const,
  /** Everything about devices: lists by folder, details, animal info, work status. */
  devices: ['devices'] as const,
  /** GetUserInfo: the shell's copy of the user (nickname, time zone) after a reload. */
  userInfo: ['user', 'info'] as const,
  /** GetAccountSetting (the map-service key, notification switches, time zone): settings change it. */
  accountSetting: ['account-setting'] as const,
  /** The instruction history and daily counts (/instr, the device details): a Send or a withdraw changes them. */
  instructions: ['instructions'] as const,
  /** Notices (/notice, the avatar's unread dot): reading, deleting or a new notice (live) changes them. */
  notices: ['notices'] as const,
  /** The event list, its counts and the subscriptions (/notice): marking read or a new event (live) changes them. */
  events: ['events'] as const,
  /** GetTileLayers: the server's map tile URL templates. */
  tileLayers: ['tile-layers'] as const,
};
