import { lazy, Suspense, useState, type ReactNode } from 'react';
import { handOverPending } from './guard';

// loaded only when a session handed over in the address waits, so /login's first load stays as it was
const HandOverConfirm = lazy(() => import('./HandOver').then((m) => ({ default: m.HandOverConfirm })));

/**
 * The console, or first the confirmation of a session handed over in the address (HandOver.tsx, issue 26
 * L10). The router is made only once nothing waits, so that no route (and no loader) runs on an
 * unconfirmed session.
 */
export function StartGate({ children }: { children: () => ReactNode }) {
  const [pending, setPending] = useState(handOverPending);
  if (pending) {
    return (
      <Suspense fallback={null}>
        <HandOverConfirm onDone={() => setPending(false)} />
      </Suspense>
    );
  }
  return <>{children()}</>;
}
