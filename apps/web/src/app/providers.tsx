import { QueryClientProvider } from '@tanstack/react-query';
import type { Lang } from '@wildtrack/contract';
import { App, ConfigProvider } from 'antd';
// antd's ES-module locales: antd/locale/* is the CommonJS build, with CommonJS copies of the picker locales.
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import type { Locale } from 'antd/es/locale';
import { useEffect, useMemo, type ReactNode } from 'react';
import { LoadingOverlay } from '../components/LoadingOverlay';
import { useLang } from '../i18n';
import { useReducedMotion } from '../lib/motion';
import { setNotifier } from '../lib/notify';
import { queryClient } from '../lib/queryClient';
import { theme } from './theme';

const ANTD_LOCALE: Record<Lang, Locale> = { zh: zhCN, en: enUS };

/** Hands antd's context-aware message and notification to the API client. */
function NotifierBridge() {
  const { message, notification } = App.useApp();
  useEffect(() => {
    setNotifier({
      notification: {
        error: (args) => notification.error(args),
        warning: (args) => notification.warning(args),
      },
      message: {
        error: (content) => void message.error(content),
        warning: (content) => void message.warning(content),
        success: (content) => void message.success(content),
      },
    });
    return () => setNotifier(null);
  }, [message, notification]);
  return null;
}

/** Query client, antd theme and locale (following the language toggle), feedback and loading overlay. */
export function AppProviders({ children }: { children: ReactNode }) {
  const lang = useLang();
  // A system set to reduce motion gets antd's components without their opening, closing and wave motion.
  const reduced = useReducedMotion();
  const themed = useMemo(() => (reduced ? { ...theme, token: { ...theme.token, motion: false } } : theme), [reduced]);
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={ANTD_LOCALE[lang]} theme={themed}>
        <App notification={{ placement: 'topRight' }}>
          <NotifierBridge />
          {children}
          <LoadingOverlay />
        </App>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
