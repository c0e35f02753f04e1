/** Six dots: the handle people drag (or focus and move with Alt+arrows). */
export function Grip() {
  return (
    <svg width="12" height="16" viewBox="0 0 12 16" aria-hidden="true" focusable="false">
      {[3, 8, 13].flatMap((y) =>
        [3, 9].map((x) => <circle key={`${x}-${y}`} cx={x} cy={y} r="1.5" fill="currentColor" />),
      )}
    </svg>
  );
}
