import { Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorState } from './ErrorState';
import './MapStatusOverlay.css';

/**
 * What a map page says over its map when it has no track to show: choose devices, the load failed (with
 * a retry), or no fixes in the range. Shared by /map2d and /map3d; `testId` keeps each page's test ids.
 */
interface Props {
  testId: string;
  noDevices: boolean;
  error: unknown;
  noFixes: boolean;
  /** What to do first, in the page's words (what the page shows of the chosen devices). */
  chooseDevices: string;
  /** The range asked for, as the page shows it. */
  range: { start: string; end: string };
  onRetry: () => void;
}

export function MapStatusOverlay({ testId, noDevices, error, noFixes, chooseDevices, range, onRetry }: Props) {
  const { t } = useTranslation();
  if (noDevices) {
    return (
      <div className="wt-map-message" data-testid={`${testId}-empty`} data-reason="no-devices">
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={chooseDevices} />
      </div>
    );
  }
  if (error) {
    return (
      <div className="wt-map-message" data-testid={`${testId}-error`}>
        <ErrorState title={t('map.loadFailed')} error={error} onRetry={onRetry} />
      </div>
    );
  }
  if (noFixes) {
    return (
      <div className="wt-map-message wt-map-message-small" data-testid={`${testId}-empty`} data-reason="no-fixes">
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('map.noFixes', range)} />
      </div>
    );
  }
  return null;
}
