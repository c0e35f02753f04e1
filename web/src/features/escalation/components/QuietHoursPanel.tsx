import { useQuery } from '@tanstack/react-query';
import { ErrorNotice } from '../../../components/ui/Notice';
import { myQuietHoursQuery, useSaveQuietHours } from '../api/contact-methods';
import { QuietWindowsEditor } from './QuietWindowsEditor';

/**
 * My account → Quiet hours (ADR 60): warnings to you wait until a window ends (never dropped);
 * critical alerts always go through.
 */
export function QuietHoursPanel() {
  const query = useQuery(myQuietHoursQuery());
  const save = useSaveQuietHours();
  const windows = query.data?.windows ?? [];
  return (
    <section className="panel" aria-labelledby="quiet-hours-title">
      <h3 id="quiet-hours-title" className="panel__title">
        Quiet hours
      </h3>
      <p className="muted">
        Warnings for you wait until the window ends; critical alerts always reach you.
      </p>
      <QuietWindowsEditor
        standalone
        windows={windows}
        onAdd={(w) => save.mutate({ windows: [...windows, w] })}
        onRemove={(i) => save.mutate({ windows: windows.filter((_, j) => j !== i) })}
        listLabel="Your quiet hours"
        emptyText={query.isPending ? null : 'No quiet hours: warnings reach you at once.'}
        addLabel="Add quiet hours"
        buttonLabel="Add quiet hours"
        namePrefix="my"
        initialDays={[0, 1, 2, 3, 4, 5, 6]}
        busy={save.isPending}
        notice={save.error ? <ErrorNotice error={save.error} className="section-gap" /> : null}
      />
    </section>
  );
}
