import { CloseCircleFilled, ExclamationCircleFilled } from '@ant-design/icons';
import { Button, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useNavigate, useRouteError } from 'react-router';

/**
 * Whether an error is the browser failing to load a piece of the console's code (a route's chunk or its
 * CSS): the server restarted, the Wi-Fi dropped, or a new version replaced the files.
 */
export function isChunkLoadError(error: unknown): boolean {
  const text = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /dynamically imported module|Importing a module script failed|Failed to fetch|error loading dynamically|Unable to preload|Load failed|NetworkError/i.test(text);
}

/** Whether the server answers at all (any status): a reload now would show the console, not the browser's offline page. */
async function serverReachable(): Promise<boolean> {
  try {
    await fetch(window.location.pathname, { method: 'HEAD', cache: 'no-store' });
    return true;
  } catch {
    return false;
  }
}

/**
 * A route's error page (the router's errorElement): a screen that could not load or stopped on an error
 * says so in the user's language, with Retry. Retry first checks that the server answers, then loads the
 * page again (a failed code load is remembered by the browser until a reload); while the server is still
 * out of reach the page stays and says so.
 */
export function RouteError({ error: given }: { error?: unknown } = {}) {
  const { t } = useTranslation();
  const routeError = useRouteError();
  const error = given ?? routeError;
  const navigate = useNavigate();
  const [checking, setChecking] = useState(false);
  const [stillDown, setStillDown] = useState(false);
  const connection = isChunkLoadError(error);
  const status = isRouteErrorResponse(error) ? error.status : null;

  const retry = async (): Promise<void> => {
    setChecking(true);
    setStillDown(false);
    const up = await serverReachable();
    setChecking(false);
    if (up) window.location.reload();
    else setStillDown(true);
  };

  const detail = connection ? '' : error instanceof Error ? error.message : status !== null ? String(status) : '';
  // Built of what the sign-in page loads already (Typography, Button, an icon), not antd's Result: the
  // error page sits on the root route, so its code is part of /login's first load (350 kB budget).
  return (
    <div className="wt-route-error" data-testid="route-error" data-kind={connection ? 'connection' : 'error'}>
      <span className={connection ? 'wt-route-error-icon wt-route-error-icon-warning' : 'wt-route-error-icon wt-route-error-icon-error'} aria-hidden>
        {connection ? <ExclamationCircleFilled /> : <CloseCircleFilled />}
      </span>
      <Typography.Title level={3} className="wt-route-error-title">
        {connection ? t('routeError.connectionTitle') : t('routeError.title')}
      </Typography.Title>
      <div className="wt-route-error-text">
        <div>{connection ? t('routeError.connectionText') : t('routeError.text')}</div>
        {detail ? <div className="wt-muted">{detail}</div> : null}
        {stillDown ? (
          <div role="alert" data-testid="route-error-still-down">
            {t('routeError.stillDown')}
          </div>
        ) : null}
      </div>
      <div className="wt-route-error-actions">
        <Button type="primary" loading={checking} onClick={() => void retry()} data-testid="route-error-retry">
          {t('common.retry')}
        </Button>
        <Button onClick={() => void navigate('/')}>{t('common.backHome')}</Button>
      </div>
    </div>
  );
}
