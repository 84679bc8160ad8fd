<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Mail;

use Drupal\Core\Config\ConfigFactoryInterface;

/**
 * Makes Sitebeam the site's default mailer, and gives the old one back.
 */
class MailerSwitch {

  public const PLUGIN_ID = 'sitebeam_mail';
  public const CORE_DEFAULT = 'php_mail';

  public function __construct(
    protected ConfigFactoryInterface $configFactory,
  ) {}

  /**
   * True when sitebeam_mail is the default mailer.
   */
  public function isActive(): bool {
    return $this->configFactory->get('system.mail')->get('interface.default') === self::PLUGIN_ID;
  }

  /**
   * Switches system.mail to follow the mail.route setting.
   */
  public function apply(bool $route): void {
    if ($route === $this->isActive()) {
      return;
    }
    $system_mail = $this->configFactory->getEditable('system.mail');
    if ($route) {
      $this->configFactory->getEditable('sitebeam.settings')
        ->set('mail.previous_interface', (string) $system_mail->get('interface.default'))
        ->save();
      $system_mail->set('interface.default', self::PLUGIN_ID)->save();
      return;
    }
    $system_mail->set('interface.default', $this->previousMailerId())->save();
  }

  /**
   * The mailer that was the default before Sitebeam, never Sitebeam itself.
   */
  public function previousMailerId(): string {
    $previous = (string) $this->configFactory->get('sitebeam.settings')->get('mail.previous_interface');
    return $previous === '' || $previous === self::PLUGIN_ID ? self::CORE_DEFAULT : $previous;
  }

}
