export function Skeleton({ width, height = 14 }: { width?: number | string; height?: number }) {
  return <span className="skeleton" style={{ width, height }} aria-hidden="true" />;
}

/** A polite "loading" placeholder for a region; the text is for screen readers. */
export function LoadingBlock({ label = 'Loading…', rows = 4 }: { label?: string; rows?: number }) {
  return (
    <div className="loading-block" role="status" aria-live="polite">
      <span className="visually-hidden">{label}</span>
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} width={`${90 - ((i * 17) % 40)}%`} height={16} />
      ))}
    </div>
  );
}
