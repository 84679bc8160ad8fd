// The script-tag build: enhances every `form[data-sitebeam-form]` and defines <sitebeam-contact-form>.
import { whenParsed } from '../widget/element.js';
import { defineContactForm } from './element.js';
import { enhanceForm } from './enhance.js';

whenParsed(() => {
  for (const form of document.querySelectorAll<HTMLFormElement>('form[data-sitebeam-form]'))
    enhanceForm(form);
});
defineContactForm();
