<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Contact;

use Drupal\Component\Utility\Html;
use Drupal\Core\Render\Markup;

/**
 * A hidden input as a lazy builder may return it.
 *
 * Drupal 10.3 does not apply an element type's defaults to what a lazy
 * builder returns, so an html_tag element there renders as nothing: the
 * markup is built here instead, every value escaped.
 */
final class HiddenInput {

  /**
   * The render array of <input type="hidden" name="…" value="…">.
   */
  public static function build(string $name, string $value): array {
    return [
      '#markup' => Markup::create(sprintf('<input type="hidden" name="%s" value="%s">', Html::escape($name), Html::escape($value))),
    ];
  }

}
