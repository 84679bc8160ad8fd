<?php

/**
 * @file
 * Hooks provided by the Sitebeam module.
 */

/**
 * @addtogroup hooks
 * @{
 */

/**
 * Alters the data-* attributes of the tracker's script tag.
 *
 * The snippet reads its options from these attributes (data-api,
 * data-website, data-respect-dnt, data-exclude, data-hash, ...). The tag is
 * part of cached pages: an implementation whose result varies adds its
 * cacheability with hook_page_attachments_alter().
 *
 * @param array $attributes
 *   Attribute name => value.
 */
function hook_sitebeam_tracker_attributes_alter(array &$attributes) {
  $attributes['data-hash'] = 'true';
}

/**
 * @} End of "addtogroup hooks".
 */
