export { TokensDialog } from './components/TokensDialog';
