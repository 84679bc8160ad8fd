<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Plugin\Block;

use Drupal\Component\Utility\Html;
use Drupal\Core\Access\AccessResult;
use Drupal\Core\Access\AccessResultInterface;
use Drupal\Core\Block\Attribute\Block;
use Drupal\Core\Block\BlockBase;
use Drupal\Core\Cache\CacheableMetadata;
use Drupal\Core\Plugin\ContainerFactoryPluginInterface;
use Drupal\Core\Session\AccountInterface;
use Drupal\Core\StringTranslation\TranslatableMarkup;
use Drupal\Core\Url;
use Drupal\sitebeam\Chat\ChatSettings;
use Drupal\sitebeam\Consent\ConsentSettings;
use Drupal\sitebeam\Text\WidgetTexts;
use Symfony\Component\DependencyInjection\ContainerInterface;

/**
 * The chat widget, talking to the module's /sitebeam/chat endpoint.
 */
#[Block(
  id: 'sitebeam_chat',
  admin_label: new TranslatableMarkup('Sitebeam chat'),
  category: new TranslatableMarkup('Forms'),
)]
class ChatBlock extends BlockBase implements ContainerFactoryPluginInterface {

  public function __construct(
    array $configuration,
    $plugin_id,
    $plugin_definition,
    protected ChatSettings $chatSettings,
    protected WidgetTexts $widgetTexts,
    protected ConsentSettings $consentSettings,
  ) {
    parent::__construct($configuration, $plugin_id, $plugin_definition);
  }

  /**
   * {@inheritdoc}
   */
  public static function create(ContainerInterface $container, array $configuration, $plugin_id, $plugin_definition): static {
    return new static($configuration, $plugin_id, $plugin_definition, $container->get('sitebeam.chat_settings'), $container->get('sitebeam.widget_texts'), $container->get('sitebeam.consent_settings'));
  }

  /**
   * {@inheritdoc}
   */
  protected function blockAccess(AccountInterface $account): AccessResultInterface {
    // The same permission as the endpoint the block talks to.
    return AccessResult::allowedIfHasPermission($account, 'access content');
  }

  /**
   * {@inheritdoc}
   */
  public function build(): array {
    $models = $this->chatSettings->models();
    // Nothing while the chat is off; the config tag brings it back when on.
    $build = $models === [] ? [] : [
      '#theme' => 'sitebeam_chat',
      '#action' => Url::fromRoute('sitebeam.chat')->toString(),
      '#models' => $models,
      '#id_prefix' => Html::getUniqueId('sitebeam-chat'),
      '#texts' => WidgetTexts::attributes($this->widgetTexts->chat()),
      '#consent' => $this->consentSettings->chat()?->toTemplate(),
      '#attached' => ['library' => ['sitebeam/chat']],
    ];
    // The consent-url attribute is absolute: it varies by the site's address.
    (new CacheableMetadata())->addCacheTags(['config:' . ChatSettings::CONFIG])->addCacheContexts(['url.site'])->applyTo($build);
    return $build;
  }

}
