import { useCallback, useRef, type RefObject } from 'react';

/**
 * A dialog's first field, focused once the dialog has opened (antd Modal's `afterOpenChange`). A field's
 * `autoFocus` alone is not enough: it fires when the field mounts, and a dialog that is kept mounted
 * (`forceRender`) or drawn without its opening animation (motion off for a user who reduces motion) mounts
 * the field before it is shown in the document, so the dialog took the focus itself.
 */
export function useFocusOnOpen<T extends { focus: () => void }>(): [RefObject<T | null>, (open: boolean) => void] {
  const field = useRef<T>(null);
  const afterOpenChange = useCallback((open: boolean) => {
    if (open) field.current?.focus();
  }, []);
  return [field, afterOpenChange];
}
