import { useParams } from 'react-router';

/** The `:id` route parameter as a positive integer, or null when it is not one. */
export function usePageId(): number | null {
  const { id } = useParams();
  if (!id || !/^\d+$/.test(id)) return null;
  const n = Number(id);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}
