// The script-tag build: defines <sitebeam-chat>.
import { defineChat } from './element.js';

defineChat();
