// The script-tag build: enhances every `form[data-sitebeam-form]` and defines <sitebeam-contact-form>.
import { defineContactForm } from './element.js';
import { enhanceForm } from './enhance.js';

const enhanceAll = () => {
  for (const form of document.querySelectorAll<HTMLFormElement>('form[data-sitebeam-form]'))
    enhanceForm(form);
};

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', enhanceAll);
else enhanceAll();
defineContactForm();
