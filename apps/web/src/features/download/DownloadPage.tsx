import { useMemo } from 'react';
import { checkedImeis, type DeviceEntry, useDeviceTree, useTreeSelection } from '../../widgets/device-tree';
import { ArchiveCard } from './components/ArchiveCard';
import { TaskForm } from './components/TaskForm';
import { TaskList } from './components/TaskList';
import './download.css';

/**
 * /download (§2.1 data download and download tasks): the devices checked in the tree, a new task's kinds,
 * range, zone and format; the caller's tasks with their states, progress and time left; the daily ACC
 * archives of a checked acceleration device.
 */
export function DownloadPage() {
  const tree = useDeviceTree();
  const index = tree.data;
  const selection = useTreeSelection('download');
  const chosen = useMemo(() => {
    if (!index) return [];
    return checkedImeis(index, selection.checkedKeys)
      .map((imei) => index.deviceByKey.get(index.keysByImei.get(imei)?.[0] ?? ''))
      .filter((e): e is DeviceEntry => e !== undefined);
  }, [index, selection.checkedKeys]);
  return (
    <div className="wt-download" data-testid="download-page">
      <TaskForm chosen={chosen} />
      <TaskList />
      <ArchiveCard chosen={chosen} />
    </div>
  );
}
