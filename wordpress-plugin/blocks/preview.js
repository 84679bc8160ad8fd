import { ConsentPreview } from './consent-panel';

// The editor's preview of a widget: its fields as a visitor sees them (disabled), the site's consent
// checkbox, the button and a note for the author. The widget itself is rendered by PHP on the page.
export function PreviewField({ label, rows }) {
  return (
    <p>
      {/* biome-ignore lint/a11y/noLabelWithoutControl: the label holds its control, one of the two below. */}
      <label>
        {label}
        <br />
        {rows ? <textarea rows={rows} disabled /> : <input type="text" disabled />}
      </label>
    </p>
  );
}

export function PreviewEnd({ endpoint, button, note }) {
  return (
    <>
      <ConsentPreview endpoint={endpoint} />
      <p>
        <button type="button" disabled>
          {button}
        </button>
      </p>
      <p>
        <small>{note}</small>
      </p>
    </>
  );
}
