import { SettingOutlined } from '@ant-design/icons';
import { Button, Checkbox, Popover } from 'antd';
import { useTranslation } from 'react-i18next';
import { DEFAULT_CHOICE, FIX_COLUMNS, FIXED_FIX_COLUMN, type ColumnChoice, type FixColumn } from './fixColumns';

/** Each column's name in the chooser (the table's header without its unit). */
const LABEL: Record<FixColumn, string> = {
  PickTime: 'track.col.pickTime', Latitude: 'track.col.latitude', Longitude: 'track.col.longitude', Altitude: 'track.col.altitude', Speed: 'track.col.speed',
  Course: 'track.col.course', HDOP: 'HDOP', VDOP: 'VDOP', Satellites: 'track.col.satellites', PrecisionGrade: 'track.col.precision', Validity: 'track.col.validity',
  Temperature: 'track.col.temperature', Exercise: 'track.col.exercise', Voltage: 'track.col.voltage', Channel: 'track.col.channel', TransmissionTime: 'track.col.transmissionTime',
};

interface Props {
  value: ColumnChoice;
  onChange: (next: ColumnChoice) => void;
}

/**
 * The table's column chooser: a box per column of §3 Fix in a popover (Fix time always shown), and a way
 * back to the compact default set. The choice is kept per user (fixColumns.ts).
 */
export function FixColumnChooser({ value, onChange }: Props) {
  const { t } = useTranslation();
  const shown = new Set(value.columns);
  const content = (
    <div className="wt-column-chooser" data-testid="column-chooser">
      <Checkbox.Group
        className="wt-column-chooser-list"
        value={value.columns}
        onChange={(checked) => onChange({ ...value, columns: checked as FixColumn[] })}
        options={FIX_COLUMNS.map((column) => ({
          value: column,
          label: <span data-testid={`column-option-${column}`}>{column === 'HDOP' || column === 'VDOP' ? column : t(LABEL[column])}</span>,
          disabled: column === FIXED_FIX_COLUMN,
        }))}
      />
      <Button size="small" type="link" className="wt-column-chooser-reset" data-testid="columns-reset" onClick={() => onChange(DEFAULT_CHOICE)}>
        {t('track.columns.reset')}
      </Button>
    </div>
  );
  return (
    <Popover content={content} title={t('track.columns.title')} trigger="click" placement="bottomRight">
      <Button size="small" icon={<SettingOutlined />} data-testid="columns-toggle" data-shown={[...shown].join(',')}>
        {t('track.columns.button')}
      </Button>
    </Popover>
  );
}
