import {
  DownOutlined,
  ExperimentOutlined,
  HistoryOutlined,
  BellOutlined,
  IdcardOutlined,
  KeyOutlined,
  InfoCircleOutlined,
  LogoutOutlined,
  MessageOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  TeamOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { CLIENT_VERSION, truncateDisplay } from '@wildtrack/contract';
import { App, Avatar, Badge, Dropdown, Grid, Switch, Typography, type MenuProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useUnreadNoticeCount } from '../../features/notice';
import { MembersDialog } from '../../features/members';
import { useIsPrimary, UserLogDialog } from '../../features/userlog';
import { VersionDialog } from '../../features/version';
import { TokensDialog } from '../../features/tokens';
import { useExperienceSwitch } from '../../widgets/device-tree';
import { logout } from '../../lib/auth';
import { useSession } from '../../lib/session';

/** What the user menu opens; the layout holds the dialogs. */
export interface UserMenuActions {
  onUserInfo: () => void;
  onAccountSecurity: () => void;
  onSettings: () => void;
  onFeedback: () => void;
}

/**
 * The user dropdown (§2.3). It holds only entries that work today: who is signed in (nickname and
 * avatar), user info, account security, settings (notifications, map-service key, time zone), the
 * experience-devices switch, personal access tokens, the version, feedback and sign-out; notices join with their issue.
 */
export function UserMenu({ onUserInfo, onAccountSecurity, onSettings, onFeedback }: UserMenuActions) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const { user } = useSession();
  const experience = useExperienceSwitch();
  const experienceOn = user.experience === '1';
  const [versionOpen, setVersionOpen] = useState(false);
  const [logOpen, setLogOpen] = useState(false);
  const [membersOpen, setMembersOpen] = useState(false);
  const [tokensOpen, setTokensOpen] = useState(false);
  const isPrimary = useIsPrimary();
  const unread = useUnreadNoticeCount().data ?? 0;
  const navigate = useNavigate();

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
    {
      key: 'notices',
      icon: <BellOutlined />,
      label: (
        <span className="wt-user-menu-switch">
          {t('layout.notices')}
          {unread > 0 ? <Badge count={unread} size="small" data-testid="unread-count" /> : null}
        </span>
      ),
    },
    { key: 'info', icon: <IdcardOutlined />, label: t('layout.userInfo') },
    { key: 'security', icon: <SafetyCertificateOutlined />, label: t('layout.accountSecurity') },
    { key: 'settings', icon: <SettingOutlined />, label: t('layout.settings') },
    // personal access tokens for scripts (the Movebank-compatible read API)
    { key: 'tokens', icon: <KeyOutlined />, label: t('layout.tokens') },
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
    { key: 'version', icon: <InfoCircleOutlined />, label: t('layout.version', { version: CLIENT_VERSION }) },
    // The organisation's user log: its primary user only (the server refuses anyone else).
    ...(isPrimary ? [{ key: 'userLog', icon: <HistoryOutlined />, label: t('layout.userLog') }] : []),
    // The organisation's accounts: its primary user only, as the log (the server refuses anyone else).
    ...(isPrimary ? [{ key: 'members', icon: <TeamOutlined />, label: t('layout.members') }] : []),
    { key: 'feedback', icon: <MessageOutlined />, label: t('layout.feedback') },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, danger: true, label: t('layout.logout') },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'notices') void navigate('/notice?tab=notices');
    if (key === 'info') onUserInfo();
    if (key === 'feedback') onFeedback();
    if (key === 'security') onAccountSecurity();
    if (key === 'settings') onSettings();
    if (key === 'experience' && !experience.isPending) toggleExperience();
    if (key === 'version') setVersionOpen(true);
    if (key === 'userLog') setLogOpen(true);
    if (key === 'members') setMembersOpen(true);
    if (key === 'tokens') setTokensOpen(true);
    if (key === 'logout') confirmLogout();
  };

  return (
    <>
      <Dropdown menu={{ items, onClick }} trigger={['click']} placement="bottomRight">
        <button
          type="button"
          className="wt-user-button"
          // the visible name is part of the button's name (WCAG 2.5.3), then what the button opens
          aria-label={screens.sm ? `${displayName} · ${t('layout.userMenu')}` : t('layout.userMenu')}
          data-testid="user-menu"
        >
          <Badge dot={unread > 0} offset={[-4, 4]} data-testid="unread-dot" data-unread={unread}>
            <Avatar size={32} src={user.imgUrl || undefined} icon={user.imgUrl ? undefined : <UserOutlined />} className="wt-avatar" />
          </Badge>
          {screens.sm ? <span className="wt-user-name">{displayName}</span> : null}
          <DownOutlined className="wt-user-caret" />
        </button>
      </Dropdown>
      <VersionDialog open={versionOpen} onClose={() => setVersionOpen(false)} />
      <UserLogDialog open={logOpen} onClose={() => setLogOpen(false)} />
      <MembersDialog open={membersOpen} onClose={() => setMembersOpen(false)} />
      <TokensDialog open={tokensOpen} onClose={() => setTokensOpen(false)} />
    </>
  );
}
