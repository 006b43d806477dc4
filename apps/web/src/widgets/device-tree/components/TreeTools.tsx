import { FolderAddOutlined, NodeCollapseOutlined, NodeExpandOutlined } from '@ant-design/icons';
import { Button, Input, Select, Tooltip, Typography } from 'antd';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { RightFilter } from '../model';

interface ToolsProps {
  search: string;
  onSearch: (value: string) => void;
  sensor: number;
  onSensor: (value: number) => void;
  right: RightFilter;
  onRight: (value: RightFilter) => void;
  sensorOptions: { value: number; label: string }[];
  summary: string;
  onExpandAll: () => void;
  onCollapseAll: () => void;
  /** Adds a folder in the root; null while there is no root to add to. */
  onAddRoot: (() => void) | null;
}

/**
 * The search, the filters, the summary and the tree's buttons. Kept apart (and memoised) so that
 * expanding or selecting in a large tree does not render the inputs again.
 */
export const TreeTools = memo(function TreeTools(p: ToolsProps) {
  const { t } = useTranslation();
  return (
    <div className="wt-tree-tools">
      <Input.Search
        allowClear
        size="middle"
        placeholder={t('tree.searchPlaceholder')}
        aria-label={t('tree.search')}
        value={p.search}
        onChange={(e) => p.onSearch(e.target.value)}
        data-testid="tree-search"
      />
      <div className="wt-tree-filters">
        <Select
          size="small"
          value={p.sensor}
          onChange={p.onSensor}
          options={p.sensorOptions}
          aria-label={t('tree.sensorFilterLabel')}
          popupMatchSelectWidth={false}
          data-testid="tree-sensor-filter"
          className="wt-tree-sensor-select"
        />
        <Select
          size="small"
          value={p.right}
          onChange={p.onRight}
          aria-label={t('tree.rightFilterLabel')}
          popupMatchSelectWidth={false}
          data-testid="tree-right-filter"
          options={[
            { value: 'all', label: t('tree.rightFilter.all') },
            { value: 'download', label: t('tree.rightFilter.download') },
            { value: 'share', label: t('tree.rightFilter.share') },
          ]}
        />
      </div>
      <div className="wt-tree-bar">
        <Typography.Text type="secondary" className="wt-tree-summary" data-testid="tree-summary">
          {p.summary}
        </Typography.Text>
        <span>
          <Tooltip title={t('tree.expandAll')}>
            <Button size="small" type="text" icon={<NodeExpandOutlined />} aria-label={t('tree.expandAll')} onClick={p.onExpandAll} />
          </Tooltip>
          <Tooltip title={t('tree.collapseAll')}>
            <Button size="small" type="text" icon={<NodeCollapseOutlined />} aria-label={t('tree.collapseAll')} onClick={p.onCollapseAll} />
          </Tooltip>
          <Tooltip title={t('tree.addRootFolder')}>
            <Button
              size="small"
              type="text"
              icon={<FolderAddOutlined />}
              aria-label={t('tree.addRootFolder')}
              disabled={!p.onAddRoot}
              onClick={() => p.onAddRoot?.()}
            />
          </Tooltip>
        </span>
      </div>
    </div>
  );
});

