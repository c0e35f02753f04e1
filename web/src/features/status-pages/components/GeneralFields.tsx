import { Field } from '../../../components/ui/Field';
import { TimeZonePicker } from '../../../components/ui/TimeZonePicker';
import { TextInputField } from '../../monitors/components/form/controls';
import { slugify, type Draft } from '../draft';

interface Props {
  draft: Draft;
  set: (patch: Partial<Draft>, path: string) => void;
  errorFor: (path: string) => string | undefined;
}

/** Title, address and the Markdown introduction. */
export function GeneralFields({ draft, set, errorFor }: Props) {
  return (
    <>
      <TextInputField
        name="title"
        label="Title"
        error={errorFor('title')}
        kind="text"
        input={{
          value: draft.title,
          onChange: (e) => {
            const title = e.target.value;
            set(draft.slugFromTitle ? { title, slug: slugify(title) } : { title }, 'title');
          },
        }}
      />
      <Field
        name="slug"
        label="Slug"
        error={errorFor('slug')}
        hint="Lower-case letters, digits and hyphens. Changing it breaks links people saved."
      >
        {(p) => (
          <div className="sp-slug">
            <span className="sp-slug__prefix mono" aria-hidden="true">
              /status/
            </span>
            <input
              {...p}
              className="input mono"
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              value={draft.slug}
              onChange={(e) => set({ slug: e.target.value, slugFromTitle: false }, 'slug')}
            />
          </div>
        )}
      </Field>
      <Field
        name="description"
        label="Description"
        optional
        error={errorFor('description')}
        hint="Markdown: **bold**, _italic_, [links](https://example.com) and lists. Shown under the title; HTML is removed."
      >
        {(p) => (
          <textarea
            {...p}
            className="input sp-textarea"
            rows={4}
            value={draft.description}
            onChange={(e) => set({ description: e.target.value }, 'description')}
          />
        )}
      </Field>
    </>
  );
}

/** The zone the page names its times in for visitors whose browser runs no script. */
export function TimeZoneField({ draft, set, errorFor }: Props) {
  return (
    <Field
      name="timeZone"
      label="Time zone"
      hint="Visitors see times in their own zone; without script in their browser, in this one, named beside each time."
      error={errorFor('timeZone')}
    >
      {(p) => (
        <TimeZonePicker
          {...p}
          value={draft.timeZone}
          onChange={(zone) => set({ timeZone: zone }, 'timeZone')}
        />
      )}
    </Field>
  );
}

/** The custom domain and the footer. */
export function AddressFields({ draft, set, errorFor }: Props) {
  return (
    <>
      <TextInputField
        name="customDomain"
        label="Custom domain"
        optional
        error={errorFor('customDomain')}
        hint={
          <>
            Point a CNAME record for this name at this Pagewatch server (or route it through your
            reverse proxy, keeping the Host header) and terminate TLS there; the page then also
            answers at <code>https://{draft.customDomain.trim() || 'status.example.com'}/</code>.
          </>
        }
        kind="host"
        input={{
          value: draft.customDomain,
          placeholder: 'status.example.com',
          onChange: (e) => set({ customDomain: e.target.value }, 'customDomain'),
        }}
      />
      <Field
        name="footer"
        label="Footer"
        optional
        error={errorFor('footer')}
        hint="Plain text, shown at the bottom of the page (contact, legal notes)."
      >
        {(p) => (
          <textarea
            {...p}
            className="input sp-textarea"
            rows={2}
            value={draft.footer}
            onChange={(e) => set({ footer: e.target.value }, 'footer')}
          />
        )}
      </Field>
    </>
  );
}
