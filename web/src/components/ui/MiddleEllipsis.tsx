/** Where a long text is cut: its last word or so stays whole, however narrow the space. */
export function tailOf(text: string): string {
  if (text.length <= 24) return '';
  const max = Math.min(18, Math.ceil(text.length * 0.35));
  const cut = text.length - max;
  // Start the tail at a word when one begins within it, so "…eu-west-1" rather than "…st-1".
  const space = text.indexOf(' ', cut);
  const start = space !== -1 && space < text.length - 4 ? space : cut;
  return text.slice(start);
}

/**
 * One line of text that, when it does not fit, is cut in the middle ("Customer portal – pro…
 * eu-west-1"), so names that differ only at the end stay apart. Reads as the whole text.
 */
export function MiddleEllipsis({ text, className }: { text: string; className?: string }) {
  const tail = tailOf(text);
  if (tail === '') return <span className={`midell ${className ?? ''}`.trim()}>{text}</span>;
  return (
    <span className={`midell ${className ?? ''}`.trim()} title={text}>
      <span className="midell__head">{text.slice(0, text.length - tail.length)}</span>
      <span className="midell__tail">{tail}</span>
    </span>
  );
}
