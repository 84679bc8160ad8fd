<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Mail;

/**
 * The attachments weigh more than the API accepts, decoded.
 */
final class AttachmentTooLargeException extends \InvalidArgumentException {

}
