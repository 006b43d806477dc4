import { App } from 'antd';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { setTreeSelection } from '../../widgets/device-tree';

/**
 * Unsaved animal-info edits (§4 Animal info): the form says when it holds edits; what would drop them
 * (another tab of the details, another device, closing the page) asks first.
 */
let dirty = false;
const listeners = new Set<() => void>();

export function setAnimalEdits(value: boolean): void {
  if (dirty === value) return;
  dirty = value;
  for (const l of listeners) l();
}

export const hasAnimalEdits = (): boolean => dirty;

export function useAnimalEdits(): boolean {
  return useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    hasAnimalEdits,
    hasAnimalEdits,
  );
}

/** `confirm(go)`: runs `go` at once without edits, or after the user agreed to drop them. */
export function useConfirmDiscard(): (go: () => void, stay?: () => void) => void {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  return (go, stay) => {
    if (!dirty) {
      go();
      return;
    }
    modal.confirm({
      title: t('animal.discard.title'),
      content: t('animal.discard.text'),
      okText: t('animal.discard.ok'),
      okButtonProps: { danger: true },
      cancelText: t('animal.discard.keep'),
      onOk: () => {
        setAnimalEdits(false);
        go();
      },
      onCancel: () => stay?.(),
    });
  };
}

/** Closing or reloading the page with edits: the browser's own "leave site?" question. */
export function useBeforeUnloadWhileEdited(): void {
  const edited = useAnimalEdits();
  useEffect(() => {
    if (!edited) return;
    const onBeforeUnload = (e: BeforeUnloadEvent): void => {
      e.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [edited]);
}

/**
 * The device whose details show, given the one selected on /device: it follows the selection, except
 * that with unsaved animal info the user is asked first; keeping the edits puts the selection back.
 */
/** A device change waiting for the user's answer (one /device screen exists). */
let asking = false;

export function useGuardedDevice(selected: string | null): string | null {
  const confirmDiscard = useConfirmDiscard();
  const edited = useAnimalEdits();
  const [shown, setShown] = useState(selected);
  // No edits: follow the selection in the same render (React's pattern for state derived from props).
  if (shown !== selected && !edited && !asking) setShown(selected);
  useEffect(() => {
    if (shown === selected || !edited || asking) return;
    asking = true;
    confirmDiscard(
      // a selection changed again meanwhile is followed on the next render (no edits any more)
      () => {
        asking = false;
        setShown(selected);
      },
      () => {
        asking = false;
        setTreeSelection('device', { imei: shown });
      },
    );
  }, [shown, selected, edited, confirmDiscard]);
  return shown;
}
