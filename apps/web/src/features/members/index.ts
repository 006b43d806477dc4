export { MembersDialog } from './components/MembersDialog';
export { TemporaryPasswordGate } from './components/TemporaryPasswordGate';
