import { EnvironmentOutlined } from '@ant-design/icons';
import { Card, Empty, Tag, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { TreeLoadState, useDeviceTree, useTreeSelection } from '../../slots/device-tree';
import { setSelectedImeis } from '../../lib/positionSelection';
import { TrackView } from './components/TrackView';
import './track.css';

/**
 * /track (§2.1 "Location and tracks"): the device chosen in the tree (no checkboxes here, §2.3), its
 * fixes over a range as a table and as a track on a map beside it.
 */
export function TrackPage() {
  const { t } = useTranslation();
  const tree = useDeviceTree();
  const selection = useTreeSelection('track');
  const imei = selection.imei;

  // The device chosen here is the one /map2d and /map3d show too.
  useEffect(() => {
    if (imei) setSelectedImeis([imei]);
  }, [imei]);

  if (tree.isPending || tree.isError) return <TreeLoadState tree={tree} />;
  const index = tree.data;
  const key = imei ? index.keysByImei.get(imei)?.[0] : undefined;
  const entry = key ? index.deviceByKey.get(key) : undefined;
  if (!imei || !entry) {
    return (
      <Card className="wt-page-card" variant="borderless" data-testid="track-page" data-state="no-device">
        <Empty className="wt-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('track.pickDevice')} />
      </Card>
    );
  }

  const d = entry.device;
  const name = d.RemarkName || d.Caption || d.IMEI;
  return (
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
      <TrackView key={d.IMEI} entry={entry} name={name} />
    </Card>
  );
}
