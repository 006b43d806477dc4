import { HomeOutlined } from '@ant-design/icons';
import { Breadcrumb } from 'antd';
import type { ItemType } from 'antd/es/breadcrumb/Breadcrumb';
import { useTranslation } from 'react-i18next';
import { Link, useMatches } from 'react-router';
import { isRouteHandle, lastLevels } from '../routes';

/** The breadcrumb: home, then the route's levels, showing the last 4 (§2.3). */
export function Breadcrumbs() {
  const { t } = useTranslation();
  const matches = useMatches();
  const handle = [...matches].reverse().map((m) => m.handle).find(isRouteHandle);
  const trail = handle ? (handle.trail ?? [handle.nameKey]) : [];

  const items: ItemType[] = [
    {
      key: 'home',
      title: (
        <Link to="/" aria-label={t('route.home')}>
          <HomeOutlined />
        </Link>
      ),
    },
    ...trail.map((key) => ({ key, title: t(key) })),
  ];
  return <Breadcrumb className="wt-breadcrumb" items={lastLevels(items)} />;
}
