import { InspectorControls, useBlockProps } from '@wordpress/block-editor';
import { __ } from '@wordpress/i18n';
import ConsentPanel, { ConsentPreview } from '../consent-panel';

export default function Edit() {
  return (
    <div {...useBlockProps({ className: 'sitebeam-chat-preview' })}>
      <InspectorControls>
        <ConsentPanel endpoint="chat" section={__('Chat', 'sitebeam')} />
      </InspectorControls>
      <p>
        <label>
          {__('Your message', 'sitebeam')}
          <br />
          <textarea rows={3} disabled />
        </label>
      </p>
      <ConsentPreview endpoint="chat" />
      <p>
        <button type="button" disabled>
          {__('Send', 'sitebeam')}
        </button>
      </p>
      <p>
        <small>
          {__(
            'Visitors chat with the models allowed in Settings → Sitebeam; nothing is shown while the chat is off.',
            'sitebeam',
          )}
        </small>
      </p>
    </div>
  );
}
