import { ExternalLink, PanelBody } from '@wordpress/components';
import { __, sprintf } from '@wordpress/i18n';

// The consent checkbox is a site setting, not a block attribute: the REST route enforces it for every
// post, and a block attribute lives in the page, where the route cannot read it. The editor gets the
// site's checkboxes from Consent_Rule::action_enqueue_block_editor_assets().
export const consentOf = (endpoint) => window.sitebeamConsent?.[endpoint] || null;

export function ConsentPreview({ endpoint }) {
  const consent = consentOf(endpoint);
  return consent ? (
    <p>
      <label>
        <input type="checkbox" disabled /> {consent.label}
      </label>
    </p>
  ) : null;
}

export default function ConsentPanel({ endpoint, section }) {
  const consent = consentOf(endpoint);
  const settings = window.sitebeamConsent?.settings;
  return (
    <PanelBody title={__('Ask for consent', 'sitebeam')} initialOpen={Boolean(consent)}>
      <p>
        {consent
          ? sprintf(
              /* translators: %s: the consent checkbox's label. */
              __('On: visitors must tick “%s” to send a message.', 'sitebeam'),
              consent.label,
            )
          : __('Off: no consent checkbox.', 'sitebeam')}
      </p>
      {consent?.url ? <ExternalLink href={consent.url}>{consent.url}</ExternalLink> : null}
      <p>
        {sprintf(
          /* translators: %s: a section of Settings → Sitebeam, such as "Contact form". */
          __(
            'The label and the privacy policy link are set in Settings → Sitebeam, section “%s”, for every such block of the site.',
            'sitebeam',
          ),
          section,
        )}
      </p>
      {settings ? (
        <ExternalLink href={settings}>{__('Open Settings → Sitebeam', 'sitebeam')}</ExternalLink>
      ) : null}
    </PanelBody>
  );
}
