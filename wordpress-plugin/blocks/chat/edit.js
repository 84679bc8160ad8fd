import { InspectorControls, useBlockProps } from '@wordpress/block-editor';
import { __ } from '@wordpress/i18n';
import ConsentPanel from '../consent-panel';
import { PreviewEnd, PreviewField } from '../preview';

export default function Edit() {
  return (
    <div {...useBlockProps({ className: 'sitebeam-chat-preview' })}>
      <InspectorControls>
        <ConsentPanel endpoint="chat" section={__('Chat', 'sitebeam')} />
      </InspectorControls>
      <PreviewField label={__('Your message', 'sitebeam')} rows={3} />
      <PreviewEnd
        endpoint="chat"
        button={__('Send', 'sitebeam')}
        note={__(
          'Visitors chat with the models allowed in Settings → Sitebeam; nothing is shown while the chat is off.',
          'sitebeam',
        )}
      />
    </div>
  );
}
