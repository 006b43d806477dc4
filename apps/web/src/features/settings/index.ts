export { SettingsDialog } from './components/SettingsDialog';
