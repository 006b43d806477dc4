export { VersionDialog } from './components/VersionDialog';
