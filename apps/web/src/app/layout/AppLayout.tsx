import { Layout } from 'antd';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { resetTreeSelection } from '../../widgets/device-tree';
import { AccountSecurityDialog, SafetyPrompt } from '../../features/account-security';
import { TemporaryPasswordGate } from '../../features/members';
import { FeedbackDialog, UserInfoDialog } from '../../features/profile';
import { SettingsDialog } from '../../features/settings';
import { logout } from '../../lib/auth';
import { useSession } from '../../lib/session';
import { showsTreePanel } from '../routes';
import { AppHeader } from './AppHeader';
import { Breadcrumbs } from './Breadcrumbs';
import { KeepAliveOutlet } from './KeepAliveOutlet';
import { TreePanel } from './TreePanel';
import { useUserInfo } from './useUserInfo';
import './layout.css';

/**
 * The common layout of every route but the sign-in page (§2.1, §2.3); a user signed in with a temporary
 * password sees only its change form until it is changed (the server serves nothing else before).
 * `prefetch` fetches every screen's code (app/screens.ts, handed in by the route table: screens.ts loads
 * this layout, so the layout does not import it back) and returns its cancel.
 */
export function AppLayout({ prefetch }: { prefetch?: () => () => void }) {
  const { mustChangePassword } = useSession();
  return mustChangePassword ? <TemporaryPasswordGate onLeave={() => void logout()} /> : <Shell prefetch={prefetch} />;
}

function Shell({ prefetch }: { prefetch?: () => () => void }) {
  const { pathname } = useLocation();
  const { safetyPrompt } = useSession();
  const [securityOpen, setSecurityOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [userInfoOpen, setUserInfoOpen] = useState(false);
  const [feedbackOpen, setFeedbackOpen] = useState(false);
  useUserInfo();
  // Leaving the console (sign-out, an ended session) forgets what the tree had selected on each page.
  useEffect(() => () => resetTreeSelection(), []);
  // Signed in: every screen's code is fetched while the browser is idle, so a dropped connection later
  // does not cost the next screen (unit tests render screens directly and skip it).
  useEffect(() => (import.meta.env.MODE === 'test' ? undefined : prefetch?.()), [prefetch]);

  return (
    <Layout className="wt-shell">
      <AppHeader
        onUserInfo={() => setUserInfoOpen(true)}
        onAccountSecurity={() => setSecurityOpen(true)}
        onSettings={() => setSettingsOpen(true)}
        onFeedback={() => setFeedbackOpen(true)}
      />
      <Layout className="wt-body">
        {showsTreePanel(pathname) ? <TreePanel /> : null}
        <Layout.Content className="wt-content" id="wt-content">
          <Breadcrumbs />
          <KeepAliveOutlet />
        </Layout.Content>
      </Layout>
      <AccountSecurityDialog open={securityOpen} onClose={() => setSecurityOpen(false)} />
      <SettingsDialog open={settingsOpen} onClose={() => setSettingsOpen(false)} />
      <UserInfoDialog open={userInfoOpen} onClose={() => setUserInfoOpen(false)} />
      <FeedbackDialog open={feedbackOpen} onClose={() => setFeedbackOpen(false)} />
      <SafetyPrompt
        open={safetyPrompt && !securityOpen}
        // The prompt stays until an e-mail or phone is bound (the dialog ends it): closing the dialog
        // without binding brings it back (§4 "a prompt forces the account-security dialog").
        onSecure={() => setSecurityOpen(true)}
        onLeave={() => logout()}
      />
    </Layout>
  );
}
