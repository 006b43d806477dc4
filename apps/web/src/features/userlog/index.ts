export { UserLogDialog } from './components/UserLogDialog';
export { useIsPrimary } from './api/useUserLog';
