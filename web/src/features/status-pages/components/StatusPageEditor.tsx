import type { StatusPage } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/Button';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { Icon } from '../../../components/ui/Icon';
import { ErrorNotice, Notice } from '../../../components/ui/Notice';
import { describeError } from '../../../lib/errors';
import { monitorNamesQuery } from '../../monitors/api/queries';
import {
  LogoError,
  useDeleteStatusPage,
  useSaveStatusPage,
  type LogoChange,
} from '../api/status-pages';
import { draftFromPage, emptyDraft } from '../draft';
import { useDraft } from '../use-draft';
import { AppearanceFields } from './AppearanceFields';
import { AddressFields, GeneralFields, TimeZoneField } from './GeneralFields';
import { LogoField } from './LogoField';
import { PreviewPane } from './PreviewPane';
import { SectionsEditor } from './SectionsEditor';
import { SubscribersList } from './SubscribersList';
import { differs, useLeaveGuard } from '../../../lib/leave-guard';
import { SubscriptionFields } from './SubscriptionFields';
import { UnannouncedBanner } from './UnannouncedBanner';

/** Creates or edits a status page, with the server's rendering of the draft beside it. */
export function StatusPageEditor({ page, saved }: { page: StatusPage | null; saved?: boolean }) {
  const navigate = useNavigate();
  const initial = useMemo(() => (page ? draftFromPage(page) : emptyDraft()), [page]);
  const form = useDraft(initial);
  const { draft, set, errorFor } = form;
  const [savedDraft, setSavedDraft] = useState<typeof draft | null>(null);

  const monitors = useQuery(monitorNamesQuery());
  const save = useSaveStatusPage(page?.id ?? null);
  const remove = useDeleteStatusPage();
  const [logo, setLogo] = useState<LogoChange>({ kind: 'keep' });
  const leave = useLeaveGuard(differs(draft, savedDraft ?? initial) || logo.kind !== 'keep');
  const [logoError, setLogoError] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | null>(saved ? 'Saved.' : null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [showPreview, setShowPreview] = useState(false);
  const previewId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const summaryRef = useRef<HTMLDivElement>(null);
  /** Bumped by a refused save: the first error then gets the scroll and the focus. */
  const [refusals, setRefusals] = useState(0);
  const [unplaced, setUnplaced] = useState<string[]>([]);
  const pickable = useMemo(
    () => (monitors.data?.items ?? []).map((m) => ({ id: m.id, name: m.name, target: m.target })),
    [monitors.data],
  );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    form.setSubmitted(true);
    setNotice(null);
    if (!form.valid) {
      setRefusals((n) => n + 1);
      return;
    }
    setLogoError(undefined);
    save.mutate(
      { input: form.input, logo },
      {
        onSuccess: (savedPage) => {
          setLogo({ kind: 'keep' });
          setSavedDraft(draft);
          if (!page) leave.allowLeave();
          if (!page)
            void navigate(`/status-pages/${savedPage.id}/edit`, { state: { saved: true } });
          else setNotice('Saved.');
        },
        onError: (error) => {
          if (error instanceof LogoError) {
            setLogoError(describeError(error.cause).detail);
            if (!page) {
              leave.allowLeave();
              void navigate(`/status-pages/${error.page.id}/edit`);
            }
            return;
          }
          if (form.takeServerErrors(error)) setRefusals((n) => n + 1);
        },
      },
    );
  };

  const shown = { ...(form.submitted ? form.errors : {}), ...form.serverErrors };
  const errorCount = Object.keys(shown).length;
  const shownKey = Object.keys(shown).join();

  // Errors whose field is not on screen (a limit on the whole list) are said in the summary.
  useEffect(() => {
    const root = formRef.current;
    if (!root) return;
    const paths = shownKey === '' ? [] : shownKey.split(',');
    const next = paths.filter((path) => !placed(root, path));
    setUnplaced((prev) => (prev.join() === next.join() ? prev : next));
  }, [shownKey]);

  useEffect(() => {
    if (refusals === 0) return;
    const frame = requestAnimationFrame(() => {
      const root = formRef.current;
      const first = root?.querySelector<HTMLElement>('.field__error');
      (first ?? summaryRef.current)?.scrollIntoView({ block: 'center', behavior: 'auto' });
      const target = (first && controlOf(first)) ?? summaryRef.current;
      target?.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(frame);
  }, [refusals]);
  const title = page ? `Edit “${page.title}”` : 'New status page';
  return (
    <>
      <title>{`${title} · Status pages · Pagewatch`}</title>
      <Link to="/status-pages" className="back-link">
        <Icon name="chevronLeft" />
        Status pages
      </Link>
      <div className="page-head">
        <h1 className="page-title">{title}</h1>
        <div className="sp-head-actions">
          {page && (
            <a
              className="btn btn--ghost btn--sm"
              href={`/status/${page.slug}`}
              target="_blank"
              rel="noreferrer"
            >
              <Icon name="external" />
              Open page
            </a>
          )}
          <Button
            size="sm"
            className="sp-preview-toggle"
            icon="eye"
            aria-pressed={showPreview}
            aria-controls={previewId}
            onClick={() => setShowPreview((v) => !v)}
          >
            Preview
          </Button>
        </div>
      </div>
      <p className="visually-hidden" role="status">
        {notice ?? ''}
      </p>
      {notice && <Notice title={notice} className="section-gap" />}
      {page && <UnannouncedBanner className="section-gap" pageId={page.id} />}
      <div className={`sp-editor${showPreview ? ' sp-editor--preview' : ''}`}>
        <form
          ref={formRef}
          className="form sp-form"
          noValidate
          onSubmit={onSubmit}
          onBlur={form.onBlur}
        >
          {leave.guard}
          <fieldset className="form__section">
            <legend className="form__legend">Page</legend>
            <GeneralFields draft={draft} set={set} errorFor={errorFor} />
            <LogoField
              currentUrl={page?.logoUrl ?? null}
              change={logo}
              onChange={(c) => {
                setLogo(c);
                setLogoError(undefined);
              }}
              serverError={logoError}
            />
          </fieldset>
          <fieldset className="form__section">
            <legend className="form__legend">Sections and components</legend>
            <SectionsEditor
              draft={draft}
              onChange={(next) => set({ sections: next.sections }, 'sections')}
              errorFor={errorFor}
              monitors={pickable}
              monitorsLoading={monitors.isPending}
            />
          </fieldset>
          <fieldset className="form__section">
            <legend className="form__legend">Appearance</legend>
            <AppearanceFields draft={draft} set={set} errorFor={errorFor} />
          </fieldset>
          <fieldset className="form__section">
            <legend className="form__legend">Address, footer and time zone</legend>
            <AddressFields draft={draft} set={set} errorFor={errorFor} />
            <TimeZoneField draft={draft} set={set} errorFor={errorFor} />
          </fieldset>
          <fieldset className="form__section">
            <legend className="form__legend">Subscriptions</legend>
            <SubscriptionFields draft={draft} set={set} errorFor={errorFor} />
            {page && <SubscribersList pageId={page.id} />}
          </fieldset>
          <div className="form__footer">
            {save.error && !(save.error instanceof LogoError) && <ErrorNotice error={save.error} />}
            {errorCount > 0 && (
              <div className="form__summary" role="alert" tabIndex={-1} ref={summaryRef}>
                <p>{errorCount === 1 ? '1 field needs' : `${errorCount} fields need`} attention.</p>
                {unplaced.length > 0 && (
                  <ul>
                    {unplaced.map((path) => (
                      <li key={path}>{shown[path]}</li>
                    ))}
                  </ul>
                )}
              </div>
            )}
            <div className="form__buttons sp-buttons">
              <label className="sp-switch">
                <input
                  type="checkbox"
                  role="switch"
                  checked={draft.published}
                  onChange={(e) => set({ published: e.target.checked }, 'published')}
                />
                <span>Published</span>
              </label>
              {page && (
                <Button variant="ghost" icon="trash" onClick={() => setConfirmDelete(true)}>
                  Delete
                </Button>
              )}
              <Button type="submit" variant="primary" busy={save.isPending}>
                {page ? 'Save' : 'Create page'}
              </Button>
            </div>
          </div>
        </form>
        <PreviewPane id={previewId} input={form.input} />
      </div>
      {page && (
        <ConfirmDialog
          open={confirmDelete}
          title={`Delete “${page.title}”?`}
          confirmLabel="Delete page"
          tone="danger"
          busy={remove.isPending}
          error={remove.error ? <ErrorNotice error={remove.error} /> : undefined}
          onCancel={() => setConfirmDelete(false)}
          onConfirm={() =>
            remove.mutate(page.id, {
              onSuccess: () => void navigate('/status-pages', { state: { deleted: page.title } }),
            })
          }
        >
          <p>
            /status/{page.slug} stops answering and its {page.sections.length} sections, logo and
            subscribers are deleted. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}

/** Whether an error of this path shows beside a field of the form. */
function placed(root: HTMLElement, path: string): boolean {
  const field = root.querySelector(`[data-field="${CSS.escape(path)}"]`);
  if (field) return true;
  // A component's monitor error shows in its row; the email channel's in its notice.
  const component = /^sections\.(\d+)\.components\.(\d+)\.monitorId$/.exec(path);
  if (component) return root.querySelectorAll('[data-testid="status-component"]').length > 0;
  return path === 'subscriptions.emailChannelId' && root.querySelector('.field__error') !== null;
}

/** The control an error belongs to: its field's input, else the row's first button. */
function controlOf(error: HTMLElement): HTMLElement | null {
  const field = error.closest('[data-field]');
  const inField = field?.querySelector<HTMLElement>('input, select, textarea');
  if (inField) return inField;
  return (
    error.closest('li')?.querySelector<HTMLElement>('button, input') ??
    error.closest('.notice')?.querySelector<HTMLElement>('a, button') ??
    null
  );
}
