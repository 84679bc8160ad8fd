<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Plugin\Block;

use Drupal\Component\Utility\Html;
use Drupal\Core\Block\Attribute\Block;
use Drupal\Core\Block\BlockBase;
use Drupal\Core\Cache\CacheableMetadata;
use Drupal\Core\Plugin\ContainerFactoryPluginInterface;
use Drupal\Core\StringTranslation\TranslatableMarkup;
use Drupal\Core\Url;
use Drupal\sitebeam\Consent\ConsentSettings;
use Drupal\sitebeam\Contract;
use Drupal\sitebeam\Text\WidgetTexts;
use Symfony\Component\DependencyInjection\ContainerInterface;
use Symfony\Component\HttpFoundation\RequestStack;

/**
 * The contact widget, posting to the module's /sitebeam/contact endpoint.
 */
#[Block(
  id: 'sitebeam_contact_form',
  admin_label: new TranslatableMarkup('Sitebeam contact form'),
  category: new TranslatableMarkup('Forms'),
)]
class ContactFormBlock extends BlockBase implements ContainerFactoryPluginInterface {

  public function __construct(
    array $configuration,
    $plugin_id,
    $plugin_definition,
    protected RequestStack $requestStack,
    protected WidgetTexts $widgetTexts,
    protected ConsentSettings $consentSettings,
  ) {
    parent::__construct($configuration, $plugin_id, $plugin_definition);
  }

  /**
   * {@inheritdoc}
   */
  public static function create(ContainerInterface $container, array $configuration, $plugin_id, $plugin_definition): static {
    return new static($configuration, $plugin_id, $plugin_definition, $container->get('request_stack'), $container->get('sitebeam.widget_texts'), $container->get('sitebeam.consent_settings'));
  }

  /**
   * {@inheritdoc}
   */
  public function build(): array {
    $query = $this->requestStack->getCurrentRequest()?->query;
    $build = [
      '#theme' => 'sitebeam_contact_form',
      '#action' => Url::fromRoute('sitebeam.contact')->toString(),
      '#id_prefix' => Html::getUniqueId('sitebeam-contact'),
      '#texts' => WidgetTexts::attributes($this->widgetTexts->contactForm()),
      '#consent' => $this->consentSettings->contact()?->toTemplate(),
      // The no-JavaScript post comes back here with ?sent=1, and &queued=1
      // when the message waits in the outbox: received, not sent yet.
      '#sent' => $query?->get(Contract::CONTACT_SENT_QUERY_PARAM) === '1',
      '#queued' => $query?->get(Contract::CONTACT_RESPONSE_FIELD_QUEUED) === '1',
      '#token' => [
        '#lazy_builder' => ['sitebeam.contact_form_token:hiddenField', []],
        '#create_placeholder' => TRUE,
      ],
      // A fresh fill-time ticket on every request, cached pages included.
      '#ticket' => [
        '#lazy_builder' => ['sitebeam.contact_ticket:hiddenField', []],
        '#create_placeholder' => TRUE,
      ],
      '#attached' => ['library' => ['sitebeam/contact_form']],
      '#cache' => ['contexts' => ['url.query_args:sent', 'url.query_args:queued']],
    ];
    // The consent checkbox comes and goes with the settings.
    CacheableMetadata::createFromRenderArray($build)->addCacheableDependency($this->consentSettings->cacheability())->applyTo($build);
    return $build;
  }

}
