import { Select } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { isSelectable, unselectableReason, useDeviceTree } from '../slots/device-tree';
import './DevicePicker.css';

interface Props {
  value: readonly string[];
  onChange: (imeis: string[]) => void;
}

/**
 * The devices a position screen (/map2d, /map3d) shows, chosen from the user's device tree (the tree
 * panel itself is not shown on the map screens, §2.3): searchable by name or IMEI; devices without
 * positions (VHF receivers) are greyed out.
 */
export function DevicePicker({ value, onChange }: Props) {
  const { t } = useTranslation();
  const tree = useDeviceTree();
  const options = useMemo(() => {
    const seen = new Set<string>();
    const list: { value: string; label: string; search: string; disabled: boolean; title?: string }[] = [];
    for (const entry of tree.data?.devices ?? []) {
      const d = entry.device;
      if (seen.has(d.IMEI)) continue;
      seen.add(d.IMEI);
      const name = d.RemarkName || d.Caption || d.IMEI;
      const reason = unselectableReason(d, entry.permission, 'track');
      list.push({
        value: d.IMEI,
        label: name,
        search: `${name} ${d.IMEI}`.toLowerCase(),
        disabled: !isSelectable(d, entry.permission, 'track'),
        ...(reason ? { title: t(reason) } : {}),
      });
    }
    return list;
  }, [tree.data, t]);

  return (
    <Select
      mode="multiple"
      data-testid="device-picker"
      aria-label={t('map2d.devices')}
      placeholder={t('map2d.devicesPlaceholder')}
      className="wt-device-picker"
      value={[...value]}
      onChange={onChange}
      options={options}
      loading={tree.isLoading}
      allowClear
      maxTagCount="responsive"
      // The chosen devices show by name; the list shows the IMEI beside it.
      optionRender={(option) => (
        <span className="wt-device-option">
          {option.data.label}
          {option.data.label !== option.data.value ? <span className="wt-device-option-imei"> · {option.data.value}</span> : null}
        </span>
      )}
      optionFilterProp="search"
      filterOption={(input, option) => (option?.search ?? '').includes(input.trim().toLowerCase())}
      notFoundContent={tree.isLoading ? t('common.loading') : t('map2d.noDevices')}
    />
  );
}
