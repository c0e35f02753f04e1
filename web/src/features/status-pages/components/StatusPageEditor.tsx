import type { StatusPage } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState, type FormEvent } from 'react';
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
import { AddressFields, GeneralFields } from './GeneralFields';
import { LogoField } from './LogoField';
import { PreviewPane } from './PreviewPane';
import { SectionsEditor } from './SectionsEditor';
import { SubscribersList } from './SubscribersList';
import { SubscriptionFields } from './SubscriptionFields';

/** Creates or edits a status page, with the server's rendering of the draft beside it. */
export function StatusPageEditor({ page, saved }: { page: StatusPage | null; saved?: boolean }) {
  const navigate = useNavigate();
  const form = useDraft(useMemo(() => (page ? draftFromPage(page) : emptyDraft()), [page]));
  const { draft, set, errorFor } = form;
  const monitors = useQuery(monitorNamesQuery());
  const save = useSaveStatusPage(page?.id ?? null);
  const remove = useDeleteStatusPage();
  const [logo, setLogo] = useState<LogoChange>({ kind: 'keep' });
  const [logoError, setLogoError] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | null>(saved ? 'Saved.' : null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [showPreview, setShowPreview] = useState(false);
  const previewId = useId();
  const pickable = useMemo(
    () => (monitors.data?.items ?? []).map((m) => ({ id: m.id, name: m.name, target: m.target })),
    [monitors.data],
  );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    form.setSubmitted(true);
    setNotice(null);
    if (!form.valid) return;
    setLogoError(undefined);
    save.mutate(
      { input: form.input, logo },
      {
        onSuccess: (savedPage) => {
          setLogo({ kind: 'keep' });
          if (!page)
            void navigate(`/status-pages/${savedPage.id}/edit`, { state: { saved: true } });
          else setNotice('Saved.');
        },
        onError: (error) => {
          if (error instanceof LogoError) {
            setLogoError(describeError(error.cause).detail);
            if (!page) void navigate(`/status-pages/${error.page.id}/edit`);
            return;
          }
          form.takeServerErrors(error);
        },
      },
    );
  };

  const errorCount = form.submitted ? Object.keys(form.errors).length : 0;
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
      <div className={`sp-editor${showPreview ? ' sp-editor--preview' : ''}`}>
        <form className="form sp-form" noValidate onSubmit={onSubmit} onBlur={form.onBlur}>
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
            <legend className="form__legend">Address and footer</legend>
            <AddressFields draft={draft} set={set} errorFor={errorFor} />
          </fieldset>
          <fieldset className="form__section">
            <legend className="form__legend">Subscriptions</legend>
            <SubscriptionFields draft={draft} set={set} errorFor={errorFor} />
            {page && <SubscribersList pageId={page.id} />}
          </fieldset>
          <div className="form__footer">
            {save.error && !(save.error instanceof LogoError) && <ErrorNotice error={save.error} />}
            {errorCount > 0 && (
              <p className="form__summary" role="alert">
                {errorCount === 1 ? '1 field needs' : `${errorCount} fields need`} attention.
              </p>
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
