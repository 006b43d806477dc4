import { App } from 'antd';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { useCreateFolder, useMoveDevice, useMoveFolder, useRenameFolder, useUpdateRemarkName } from '../api';
import { ancestorKeys, folderLabel, getTreeSelection, setTreeSelection, type DeviceEntry, type FolderEntry, type TreeIndex, type TreePage } from '../model';
import { MoveDialog, NameDialog } from './TreeDialogs';

/** Which of the tree's dialogs is open, and for what. */
export type TreeDialog =
  | { kind: 'add'; parent: FolderEntry }
  | { kind: 'rename'; folder: FolderEntry }
  | { kind: 'moveFolder'; folder: FolderEntry }
  | { kind: 'moveDevice'; entry: DeviceEntry }
  | { kind: 'remark'; entry: DeviceEntry };


interface DialogsProps {
  page: TreePage;
  dialog: TreeDialog | null;
  index: TreeIndex | undefined;
  onClose: () => void;
  /** Opens folders (the way to a new folder or to a move's target). */
  onReveal: (keys: string[]) => void;
}

/** The dialogs of §2.4 (new folder, rename, remark name, move), with the calls they make. */
export const TreeDialogHost = memo(function TreeDialogHost({ page, dialog, index, onClose, onReveal }: DialogsProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { mutateAsync: createFolder } = useCreateFolder();
  const { mutateAsync: renameFolder } = useRenameFolder();
  const { mutateAsync: moveFolder } = useMoveFolder();
  const { mutateAsync: moveDevice } = useMoveDevice();
  const { mutateAsync: updateRemark } = useUpdateRemarkName();
  return (
    <>
      <NameDialog
        open={dialog?.kind === 'add' || dialog?.kind === 'rename'}
        kind="folder"
        title={dialog?.kind === 'rename' ? t('tree.renameFolder') : t('tree.addFolder')}
        label={t('tree.folderName')}
        initial={dialog?.kind === 'rename' ? dialog.folder.name : ''}
        context={dialog?.kind === 'add' ? t('tree.addUnder', { name: folderLabel(dialog.parent, t) }) : undefined}
        onClose={onClose}
        onSubmit={async (name) => {
          if (dialog?.kind === 'add') {
            const parent = dialog.parent;
            await createFolder({ name, parentId: parent.id });
            onReveal(index ? ancestorKeys(index, parent.id) : [parent.key]);
            message.success(t('tree.created'));
          } else if (dialog?.kind === 'rename') {
            await renameFolder({ id: dialog.folder.id, name });
            message.success(t('common.saved'));
          }
        }}
      />
      <NameDialog
        open={dialog?.kind === 'remark'}
        kind="remark"
        title={t('tree.remarkName')}
        label={t('tree.remarkName')}
        initial={dialog?.kind === 'remark' ? dialog.entry.device.RemarkName : ''}
        context={dialog?.kind === 'remark' ? `${dialog.entry.device.Caption} · ${dialog.entry.device.IMEI}` : undefined}
        onClose={onClose}
        onSubmit={async (remarkName) => {
          if (dialog?.kind !== 'remark') return;
          await updateRemark({ imei: dialog.entry.device.IMEI, remarkName });
          message.success(t('common.saved'));
        }}
      />
      <MoveDialog
        open={dialog?.kind === 'moveFolder' || dialog?.kind === 'moveDevice'}
        title={
          dialog?.kind === 'moveFolder'
            ? t('tree.moveFolderTitle', { name: dialog.folder.name })
            : dialog?.kind === 'moveDevice'
              ? t('tree.moveDeviceTitle', { name: dialog.entry.device.RemarkName || dialog.entry.device.Caption })
              : ''
        }
        moving={dialog?.kind === 'moveFolder' ? dialog.folder.id : undefined}
        current={dialog?.kind === 'moveFolder' ? (dialog.folder.parentId ?? undefined) : dialog?.kind === 'moveDevice' ? dialog.entry.folderId : undefined}
        onClose={onClose}
        onSubmit={async (target) => {
          if (dialog?.kind === 'moveFolder') await moveFolder({ id: dialog.folder.id, parentId: target });
          else if (dialog?.kind === 'moveDevice') {
            const imei = dialog.entry.device.IMEI;
            await moveDevice({ imei, folderId: target });
            // the moved device stays selected where it went
            if (getTreeSelection(page).imei === imei) setTreeSelection(page, { folderId: target, imei });
          }
          // §4: moving reloads the tree and keeps the expanded nodes (and opens the way to the target)
          onReveal(index ? ancestorKeys(index, target) : [`f:${target}`]);
          message.success(t('tree.moved'));
        }}
      />
    </>
  );
});

