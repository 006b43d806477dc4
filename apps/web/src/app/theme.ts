import type { ThemeConfig } from 'antd';

/** A light console with a teal brand: forest and water, the colours of the field. */
export const theme: ThemeConfig = {
  token: {
    colorPrimary: '#0f766e',
    colorInfo: '#0f766e',
    colorSuccess: '#16a34a',
    colorLink: '#0f766e',
    // antd derives greyish tints from a dark seed; the light shades are set by hand to stay teal.
    colorPrimaryBg: '#e6f5f2',
    colorPrimaryBgHover: '#cdebe5',
    colorPrimaryBorder: '#9fd8cc',
    colorPrimaryBorderHover: '#5fbfae',
    colorPrimaryHover: '#138a80',
    colorPrimaryActive: '#0b5e57',
    colorInfoBg: '#e6f5f2',
    colorInfoBorder: '#9fd8cc',
    colorSuccessBg: '#ecfdf3',
    colorSuccessBorder: '#a6e9c0',
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
