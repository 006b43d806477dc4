import { useEffect, useRef } from 'react';

/**
 * Makes an antd table's scrolling body a keyboard stop with a name (WCAG 2.1.1; axe's scrollable-region-focusable):
 * a body that scrolls sideways or down while it holds no row a keyboard can reach (empty, loading, or between two
 * folders' lists) can then still be scrolled with the arrow keys. Set after every commit, because rc-table renders
 * the body element anew when its content changes shape.
 */
export function useScrollRegion<T extends HTMLElement>(label: string) {
  const ref = useRef<T>(null);
  useEffect(() => {
    for (const body of ref.current?.querySelectorAll<HTMLElement>('.ant-table-body') ?? []) {
      if (body.tabIndex !== 0) body.tabIndex = 0;
      if (body.getAttribute('aria-label') !== label) body.setAttribute('aria-label', label);
      if (body.getAttribute('role') !== 'region') body.setAttribute('role', 'region');
    }
  });
  return ref;
}
