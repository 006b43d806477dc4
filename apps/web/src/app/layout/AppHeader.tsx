import { ClockCircleOutlined } from '@ant-design/icons';
import { Grid, Layout, Menu, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { BrandMark } from '../../components/BrandMark';
import { LanguageToggle } from '../../components/LanguageToggle';
import { useZone } from '../../lib/session';
import { isMenuGroup, MENU, menuEntries, normalizePath } from '../routes';
import { LiveStatus } from './LiveStatus';
import { UserMenu, type UserMenuActions } from './UserMenu';

/** The header bar (§2.3): brand, the top tabs, and on the right time zone, language and user. */
export function AppHeader(actions: UserMenuActions) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const zone = useZone();
  const screens = Grid.useBreakpoint();
  const current = normalizePath(pathname);
  const selected = menuEntries(MENU)
    .filter((entry) => current === entry.path || current.startsWith(`${entry.path}/`))
    .map((e) => e.path);

  return (
    <Layout.Header className="wt-header">
      <Link to="/" className="wt-brand" aria-label={t('app.name')}>
        <BrandMark size={30} />
        {screens.md ? <span className="wt-brand-name">{t('app.name')}</span> : null}
      </Link>
      <Menu
        className="wt-top-menu"
        mode="horizontal"
        selectedKeys={selected}
        items={MENU.map((item) =>
          isMenuGroup(item)
            ? {
                key: item.key,
                label: t(item.labelKey),
                children: item.children.map((entry) => ({ key: entry.path, label: <Link to={entry.path}>{t(entry.labelKey)}</Link> })),
              }
            : { key: item.path, label: <Link to={item.path}>{t(item.labelKey)}</Link> },
        )}
      />
      <div className="wt-header-right">
        {!screens.xs ? (
          <Tooltip title={t('layout.timeZoneTitle')}>
            <Tag icon={<ClockCircleOutlined />} className="wt-time-zone" data-testid="time-zone">
              {zone}
            </Tag>
          </Tooltip>
        ) : null}
        <LiveStatus />
        <LanguageToggle size="small" />
        <UserMenu {...actions} />
      </div>
    </Layout.Header>
  );
}
