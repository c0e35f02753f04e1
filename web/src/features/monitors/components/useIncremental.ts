import { useEffect, useRef, useState } from 'react';

/**
 * Renders a long list in growing slices: the first `step` rows at once, more as the sentinel
 * nears the viewport. Simple stand-in for virtualisation; resets when `resetKey` changes.
 */
export function useIncremental(total: number, resetKey: string, step = 150) {
  const [shown, setShown] = useState(step);
  const [lastKey, setLastKey] = useState(resetKey);
  const sentinel = useRef<HTMLDivElement>(null);
  if (lastKey !== resetKey) {
    setLastKey(resetKey);
    setShown(step);
  }
  const more = shown < total;
  useEffect(() => {
    const node = sentinel.current;
    if (!node || !more) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setShown((n) => n + step);
      },
      { rootMargin: '800px 0px' },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [more, step, shown]);
  return {
    shown: Math.min(shown, total),
    more,
    sentinel,
    showMore: () => setShown((n) => n + step),
  };
}
