import { EnvironmentOutlined } from '@ant-design/icons';
import { Card, Empty, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { UnknownDeviceNotice } from '../../components/UnknownDeviceNotice';
import { ContextInUrl, useChosenDeviceInTree, useLocate } from '../../lib/contextUrl';
import { useTrackTableLinks } from '../../lib/positionSelection';
import { setTreeSelection, TreeLoadState, useDeviceTree, useTreeSelection } from '../../widgets/device-tree';
import { TrackView } from './components/TrackView';
import { DataKinds } from './sensors/DataKinds';
import './track.css';

/**
 * /track (§2.1 "Location and tracks"): the device chosen in the tree (no checkboxes here, §2.3), its
 * fixes over a range as a table and as a track on a map beside it. The device is the one /device shows
 * and the maps open with (lib/positionSelection); the URL carries it and the range.
 */
export function TrackPage() {
  const { t } = useTranslation();
  const tree = useDeviceTree();
  const selection = useTreeSelection('track');
  const imei = selection.imei;
  // a link naming another table (Back to a /track URL, a pasted one) opens the table on it afresh
  const tableLinks = useTrackTableLinks();

  const linked = useChosenDeviceInTree('track', imei, selection.initialised, useLocate(tree.data), selectInTree);
  const notice = (
    <>
      <ContextInUrl page="track" />
      <UnknownDeviceNotice imeis={linked.unknown} onClose={linked.dismiss} />
    </>
  );

  if (tree.isPending || tree.isError)
    return (
      <>
        {notice}
        <TreeLoadState tree={tree} />
      </>
    );
  const index = tree.data;
  const key = imei ? index.keysByImei.get(imei)?.[0] : undefined;
  const entry = key ? index.deviceByKey.get(key) : undefined;
  if (!imei || !entry) {
    return (
      <>
        {notice}
        <Card className="wt-page-card" variant="borderless" data-testid="track-page" data-state="no-device">
          <Empty className="wt-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('track.pickDevice')} />
        </Card>
      </>
    );
  }

  const d = entry.device;
  const name = d.RemarkName || d.Caption || d.IMEI;
  return (
    <>
      {notice}
      <Card
        className="wt-page-card wt-track-card"
        variant="borderless"
        data-testid="track-page"
        data-imei={d.IMEI}
        title={
          <div className="wt-track-head">
            <EnvironmentOutlined />
            <Typography.Text strong ellipsis>
              {name}
            </Typography.Text>
            <Typography.Text type="secondary" className="wt-mono">
              {d.IMEI}
            </Typography.Text>
            {d.SecondLevelFix === 1 ? <Tag color="purple">{t('track.secondLevelDevice')}</Tag> : null}
          </div>
        }
      >
        <DataKinds key={d.IMEI} imei={d.IMEI} sensors={d.Sensor} canDownload={entry.permission.DownloadData} name={name}>
          <TrackView key={tableLinks} entry={entry} name={name} />
        </DataKinds>
      </Card>
    </>
  );
}

const selectInTree = (imei: string, folderId: string) => setTreeSelection('track', { imei, folderId });
