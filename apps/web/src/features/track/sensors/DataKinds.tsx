import { Segmented, Spin } from 'antd';
import { lazy, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportButton } from '../../../components/ExportButton';
import { TimeRangePicker } from '../../../components/TimeRangePicker';
import { useKindTexts } from '../../../i18n/sensor-kinds';
import { resolveRange, usePositionSelection, useTrackKind } from '../../../lib/positionSelection';
import { useZone } from '../../../lib/session';
import { type DataKind, kindsOf } from './kinds';
import { SensorPanel } from './SensorPanel';
import './sensors.css';

// The acceleration panel is its own chunk (helper A's folder); rendered only for a device with the flag.
const AccelerationPanel = lazy(() => import('../acceleration/AccelerationPanel').then((m) => ({ default: m.AccelerationPanel })));

export interface DataKindsProps {
  imei: string;
  /** The device's sensor flags (SensorFlag bits): only the kinds it has are offered. */
  sensors: number;
  /** Whether the user may download the device's data (DownloadData): the Export button's state. */
  canDownload?: boolean;
  /** The device's name, in the export's confirmation. */
  name?: string;
  /** The positions view (/track's table and map). */
  children: ReactNode;
}

/**
 * /track's switch of data kinds (issue 13 item 2): positions, and beside them each kind the device's sensor
 * flags offer (acceleration, temperature, pressure, …). A kind shows its chart and table for the same
 * range as the positions (one range for the screen). The kind and its chart's zoom are the view context's
 * (lib/positionSelection), so the URL carries them: a reload or a shared link opens the same kind and zoom.
 */
export function DataKinds({ imei, sensors, canDownload, name, children }: DataKindsProps) {
  const { t } = useTranslation();
  const texts = useKindTexts();
  const zone = useZone();
  const { range, setRange } = usePositionSelection();
  const kinds = kindsOf(sensors);
  const { kind: chosen, setKind: setChosen } = useTrackKind();
  const kind = kinds.includes(chosen) ? chosen : 'positions';
  const { start, end } = resolveRange(range, zone);

  return (
    <div className="wt-data-kinds" data-kind={kind}>
      {kinds.length > 1 ? (
        <div className="wt-data-kinds-bar">
          <Segmented<DataKind>
            data-testid="data-kinds"
            aria-label={t('trackSensors.switchLabel')}
            value={kind}
            onChange={setChosen}
            options={kinds.map((k) => ({ value: k, label: <span data-kind={k}>{texts.kind(k, 'trackSensors.kind')}</span> }))}
          />
          {kind !== 'positions' ? <TimeRangePicker value={range} onChange={setRange} /> : null}
          {kind !== 'positions' ? <ExportButton imei={imei} name={name} kind={kind} start={start} end={end} canDownload={canDownload} /> : null}
        </div>
      ) : null}
      {kind === 'positions' ? (
        children
      ) : kind === 'acceleration' ? (
        <Suspense fallback={<Spin />}>
          <AccelerationPanel imei={imei} start={start} end={end} />
        </Suspense>
      ) : (
        <SensorPanel key={kind} imei={imei} kind={kind} start={start} end={end} />
      )}
    </div>
  );
}
