export { useUnreadNoticeCount } from './api';
