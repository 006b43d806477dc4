import type { ThemeConfig } from 'antd';

/** A light console with a teal brand: forest and water, the colours of the field. */
export const theme: ThemeConfig = {
  token: {
    colorPrimary: '#0f766e',
    colorInfo: '#0f766e',
    colorLink: '#0f766e',
    // antd derives greyish tints from a dark seed; the light shades are set by hand to stay teal.
    colorPrimaryBg: '#e6f5f2',
    colorPrimaryBgHover: '#cdebe5',
    colorPrimaryBorder: '#9fd8cc',
    colorPrimaryBorderHover: '#5fbfae',
    // Hover and active go darker, not lighter: white text on a primary button keeps ≥ 4.5:1 (WCAG AA)
    // while the pointer is on it (antd's lighter hover #138a80 gave 4.2:1).
    colorPrimaryHover: '#0c655e',
    colorPrimaryActive: '#0a534d',
    colorInfoBg: '#e6f5f2',
    colorInfoBorder: '#9fd8cc',
    colorSuccessBg: '#ecfdf3',
    colorSuccessBorder: '#a6e9c0',
    // Text colours at WCAG AA (≥ 4.5:1) on white and on the layout's grey, checked by axe-core in
    // e2e/src/accessibility.spec.ts. antd's defaults (secondary text rgba(0,0,0,.45) = 3.4:1, error
    // #ff4d4f = 3.0:1, success/warning tags ≈ 3:1) fail it.
    colorSuccess: '#15803d',
    colorWarning: '#b45309',
    colorWarningBg: '#fffbeb',
    colorError: '#c8102e',
    colorTextSecondary: 'rgba(0, 0, 0, 0.62)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
    colorTextDescription: 'rgba(0, 0, 0, 0.6)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)',
    // Preset tag colours (<Tag color="cyan">) print their text in palette shade 7 on shade 1: the shades
    // below 4.5:1 there are replaced by a darker one of the same hue.
    // Both spellings: the CSS variable (--ant-cyan-7) is written from the one read last.
    green7: '#237804',
    'green-7': '#237804',
    cyan7: '#006d75',
    'cyan-7': '#006d75',
    orange7: '#ad4e00',
    'orange-7': '#ad4e00',
    gold7: '#874d00',
    'gold-7': '#874d00',
    volcano7: '#ad2102',
    'volcano-7': '#ad2102',
    lime7: '#3f6600',
    'lime-7': '#3f6600',
    colorBgLayout: '#f3f6f5',
    borderRadius: 8,
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Noto Sans SC', sans-serif",
  },
  components: {
    Layout: { headerBg: '#ffffff', siderBg: '#ffffff', bodyBg: '#f3f6f5', headerHeight: 56 },
    Menu: { horizontalItemSelectedColor: '#0f766e', itemSelectedColor: '#0f766e' },
  },
};
