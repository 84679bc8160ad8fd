import { PanelBody } from '@wordpress/components';
import { __, sprintf } from '@wordpress/i18n';

// The consent checkbox is a site setting, not a block attribute: the REST route enforces it for every
// post, and a block attribute lives in the page, where the route cannot read it.
export default function ConsentPanel({ section }) {
  return (
    <PanelBody title={__('Ask for consent', 'sitebeam')} initialOpen={false}>
      <p>
        {sprintf(
          /* translators: %s: a section of Settings → Sitebeam, such as "Contact form". */
          __(
            'The consent checkbox (its label and privacy policy link) is set in Settings → Sitebeam, section “%s”. It applies to every such block of the site, and messages without consent are refused.',
            'sitebeam',
          ),
          section,
        )}
      </p>
    </PanelBody>
  );
}
