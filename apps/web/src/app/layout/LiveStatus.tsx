import { DisconnectOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Tag, Tooltip } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { startLive, useLiveState } from '../../lib/live';
import { useSession } from '../../lib/session';

/**
 * The console's live connection (lib/live.ts), open while signed in and closed on sign-out, and a small mark
 * in the header while it is down (it reconnects by itself; the screens still work, without live updates).
 */
export function LiveStatus() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { token } = useSession();
  const live = useLiveState();
  // Unit tests render the shell without a server: no stream there (e2e/src/live.spec.ts drives it).
  useEffect(() => (token && import.meta.env.MODE !== 'test' ? startLive(client, token) : undefined), [client, token]);
  if (live !== 'down') return null;
  return (
    <Tooltip title={t('layout.liveDownHint')}>
      <Tag icon={<DisconnectOutlined />} color="warning" className="wt-live-down" data-testid="live-down" role="status">
        {t('layout.liveDown')}
      </Tag>
    </Tooltip>
  );
}
