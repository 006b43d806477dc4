import { LanguageId, ModifyLcid, type Lang } from '@wildtrack/contract';
import { Segmented, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { setLang, useLang } from '../i18n';
import { call } from '../lib/api';
import { hasToken } from '../lib/session';

/**
 * The zh / en toggle (§2.3). Switching moves i18next, antd and dayjs together (see i18n/index and the
 * providers); when signed in the choice is also recorded on the server.
 */
export function LanguageToggle({ size = 'middle' }: { size?: 'small' | 'middle' | 'large' }) {
  const lang = useLang();
  const { t } = useTranslation();

  const change = (next: Lang): void => {
    if (next === lang) return;
    setLang(next);
    if (hasToken()) {
      call(ModifyLcid, { lcid: LanguageId[next] }, { loading: false }).catch(() => {
        // the client already showed what went wrong; the interface language has changed regardless
      });
    }
  };

  return (
    <Tooltip title={t('language.label')} placement="bottom">
      <Segmented<Lang>
        size={size}
        value={lang}
        onChange={change}
        aria-label={t('language.label')}
        options={[
          { value: 'zh', label: <span lang="zh-CN">{t('language.zhShort')}</span>, title: t('language.zh') },
          { value: 'en', label: <span lang="en">{t('language.enShort')}</span>, title: t('language.en') },
        ]}
      />
    </Tooltip>
  );
}
