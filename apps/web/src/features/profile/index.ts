export { FeedbackDialog } from './components/FeedbackDialog';
export { UserInfoDialog } from './components/UserInfoDialog';
