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
 * data-website, data-respect-dnt, data-exclude, data-hash, ...). They are
 * part of the cached library definition: clear caches after changing what
 * an implementation returns.
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
