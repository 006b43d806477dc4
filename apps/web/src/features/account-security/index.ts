export { AccountSecurityDialog } from './components/AccountSecurityDialog';
export { SafetyPrompt } from './components/SafetyPrompt';
