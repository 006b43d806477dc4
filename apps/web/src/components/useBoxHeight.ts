import { useEffect, useRef, useState, type RefObject } from 'react';

/**
 * The height of a box, measured and kept up to date as it resizes (for content that must be told its
 * height: a virtual list, a table's scrolling body); `fallback` until the box has been measured.
 */
export function useBoxHeight(fallback: number): [RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement | null>(null);
  const [height, setHeight] = useState(fallback);
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const measure = (): void => {
      const h = Math.floor(box.getBoundingClientRect().height);
      if (h > 0) setHeight(h);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, []);
  return [ref, height];
}
