import { InspectorControls, useBlockProps } from '@wordpress/block-editor';
import { PanelBody, TextControl } from '@wordpress/components';
import { __ } from '@wordpress/i18n';
import ConsentPanel from '../consent-panel';
import { PreviewEnd, PreviewField } from '../preview';

const fields = [
  ['name', __('Name', 'sitebeam')],
  ['email', __('Email', 'sitebeam')],
  ['subject', __('Subject (optional)', 'sitebeam')],
];

export default function Edit({ attributes, setAttributes }) {
  const button = attributes.button || __('Send', 'sitebeam');
  return (
    <div {...useBlockProps({ className: 'sitebeam-contact-preview' })}>
      <InspectorControls>
        <PanelBody title={__('Contact form', 'sitebeam')}>
          <TextControl
            __nextHasNoMarginBottom
            __next40pxDefaultSize
            label={__('Button text', 'sitebeam')}
            value={attributes.button}
            placeholder={__('Send', 'sitebeam')}
            onChange={(value) => setAttributes({ button: value })}
          />
        </PanelBody>
        <ConsentPanel endpoint="contact" section={__('Contact form', 'sitebeam')} />
      </InspectorControls>
      {fields.map(([name, label]) => (
        <PreviewField key={name} label={label} />
      ))}
      <PreviewField label={__('Message', 'sitebeam')} rows={4} />
      <PreviewEnd
        endpoint="contact"
        button={button}
        note={__('Messages go to the contact recipient set in Settings → Sitebeam.', 'sitebeam')}
      />
    </div>
  );
}
