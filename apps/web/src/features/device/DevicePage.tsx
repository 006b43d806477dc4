import { FolderOutlined } from '@ant-design/icons';
import { BREADCRUMB_LEVELS } from '@wildtrack/contract';
import { Breadcrumb, Card, Empty, Space, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { folderLabel, folderPath, setTreeSelection, TreeLoadState, useDeviceTree, useTreeSelection } from '../../widgets/device-tree';
import { UnknownDeviceNotice } from '../../components/UnknownDeviceNotice';
import { ContextInUrl, useChosenDeviceInTree, useLocate } from '../../lib/contextUrl';
import { DeviceDetails } from './components/DeviceDetails';
import { MovebankImport } from './components/MovebankImport';
import { RegisterDevice } from './components/RegisterDevice';
import { DeviceTable } from './components/DeviceTable';
import { RootEmpty } from './components/RootEmpty';
import { useGuardedDevice } from './unsaved';
import './device.css';

/**
 * /device (§2.1): the devices of the folder selected in the tree, a page at a time, and the details of
 * the selected device (from the tree or a row of the table) in tabs. The device is the one /track shows
 * (lib/positionSelection's chosen device); the URL carries it and the tab.
 */
export function DevicePage() {
  const { t } = useTranslation();
  const tree = useDeviceTree();
  const selection = useTreeSelection('device');
  // another device drops unsaved animal info: asked first, and kept on "keep editing"
  const shownImei = useGuardedDevice(selection.imei);
  const index = tree.data;
  const linked = useChosenDeviceInTree('device', selection.imei, selection.initialised, useLocate(index), selectInTree);

  const path = useMemo(() => (index && selection.folderId ? folderPath(index, selection.folderId) : []), [index, selection.folderId]);
  // §9 breadcrumb: the last 4 levels.
  const shown = path.slice(-BREADCRUMB_LEVELS);
  const folder = path[path.length - 1];

  if (tree.isPending || tree.isError)
    return (
      <>
        <ContextInUrl page="device" />
        <TreeLoadState tree={tree} />
      </>
    );
  if (index && index.devices.length === 0 && index.top.every((f) => f.folders.length === 0)) {
    return (
      <Card className="wt-page-card" variant="borderless">
        <RootEmpty />
      </Card>
    );
  }

  return (
    <div className="wt-device-page">
      <ContextInUrl page="device" />
      <UnknownDeviceNotice imeis={linked.unknown} onClose={linked.dismiss} />
      <Card
        className="wt-page-card"
        variant="borderless"
        title={
          <div className="wt-folder-head">
            <FolderOutlined />
            <Breadcrumb
              data-testid="folder-path"
              items={[
                ...(path.length > shown.length ? [{ title: '…' }] : []),
                ...shown.map((f) => ({
                  title: (
                    <a
                      onClick={(e) => {
                        e.preventDefault();
                        setTreeSelection('device', { folderId: f.id, imei: null });
                      }}
                      href="#"
                    >
                      {folderLabel(f, t)}
                    </a>
                  ),
                })),
              ]}
            />
          </div>
        }
        extra={
          <Space size="middle">
            {folder ? <Typography.Text type="secondary">{t('device.folderCount', { count: folder.deviceCount })}</Typography.Text> : null}
            <RegisterDevice folderId={selection.folderId} />
            <MovebankImport folderId={selection.folderId} />
          </Space>
        }
      >
        {selection.folderId ? (
          <DeviceTable
            folderId={selection.folderId}
            selectedImei={selection.imei}
            onSelect={(imei) => setTreeSelection('device', { imei })}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('device.pickFolder')} />
        )}
      </Card>
      <Card className="wt-page-card wt-details-card" variant="borderless">
        {shownImei ? (
          <DeviceDetails key={shownImei} imei={shownImei} />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('device.pickDevice')} />
        )}
      </Card>
    </div>
  );
}

const selectInTree = (imei: string, folderId: string) => setTreeSelection('device', { imei, folderId });
