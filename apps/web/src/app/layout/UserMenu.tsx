import { DownOutlined, ExperimentOutlined, InfoCircleOutlined, LogoutOutlined, SafetyCertificateOutlined, SettingOutlined, UserOutlined } from '@ant-design/icons';
import { CLIENT_VERSION, truncateDisplay } from '@wildtrack/contract';
import { App, Avatar, Dropdown, Grid, Switch, Typography, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useExperienceSwitch } from '../../slots/device-tree';
import { logout } from '../../lib/auth';
import { useSession } from '../../lib/session';

/**
 * The user dropdown (§2.3). It holds only entries that work today: who is signed in, account security,
 * settings (notifications, map-service key, time zone), the experience-devices switch, the version and
 * sign-out; notices, user info and feedback join with their issues.
 */
export function UserMenu({ onAccountSecurity, onSettings }: { onAccountSecurity: () => void; onSettings: () => void }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const { user } = useSession();
  const experience = useExperienceSwitch();
  const experienceOn = user.experience === '1';

  const toggleExperience = (): void => {
    const next = !experienceOn;
    experience.mutate(next, {
      onSuccess: () => void message.success(next ? t('layout.experienceOn') : t('layout.experienceOff')),
    });
  };
  const screens = Grid.useBreakpoint();
  const displayName = truncateDisplay(user.nickName || user.userName);

  const confirmLogout = (): void => {
    modal.confirm({
      title: t('layout.logoutTitle'),
      content: t('layout.logoutContent'),
      okText: t('layout.logout'),
      cancelText: t('common.cancel'),
      onOk: () => logout(),
    });
  };

  const items: MenuProps['items'] = [
    {
      key: 'who',
      disabled: true,
      className: 'wt-user-menu-who',
      label: (
        <div>
          <Typography.Text strong>{displayName}</Typography.Text>
          <br />
          <Typography.Text type="secondary">{truncateDisplay([user.userName, user.customerName].filter(Boolean).join(' · '), 34)}</Typography.Text>
        </div>
      ),
    },
    { type: 'divider' },
    { key: 'security', icon: <SafetyCertificateOutlined />, label: t('layout.accountSecurity') },
    { key: 'settings', icon: <SettingOutlined />, label: t('layout.settings') },
    {
      key: 'experience',
      icon: <ExperimentOutlined />,
      label: (
        <span className="wt-user-menu-switch">
          {t('layout.experience')}
          <Switch
            size="small"
            checked={experienceOn}
            loading={experience.isPending}
            aria-label={t('layout.experience')}
            data-testid="experience-switch"
          />
        </span>
      ),
    },
    { key: 'version', icon: <InfoCircleOutlined />, disabled: true, label: t('layout.version', { version: CLIENT_VERSION }) },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, danger: true, label: t('layout.logout') },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'security') onAccountSecurity();
    if (key === 'settings') onSettings();
    if (key === 'experience' && !experience.isPending) toggleExperience();
    if (key === 'logout') confirmLogout();
  };

  return (
    <Dropdown menu={{ items, onClick }} trigger={['click']} placement="bottomRight">
      <button type="button" className="wt-user-button" aria-label={t('layout.userMenu')} data-testid="user-menu">
        <Avatar size={32} src={user.imgUrl || undefined} icon={user.imgUrl ? undefined : <UserOutlined />} className="wt-avatar" />
        {screens.sm ? <span className="wt-user-name">{displayName}</span> : null}
        <DownOutlined className="wt-user-caret" />
      </button>
    </Dropdown>
  );
}
