<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Text;

use Drupal\Core\StringTranslation\StringTranslationTrait;
use Drupal\Core\StringTranslation\TranslatableMarkup;
use Drupal\Core\StringTranslation\TranslationInterface;
use Drupal\Core\Template\Attribute;

/**
 * The widgets' texts in the site's language, as data-text-* attributes.
 *
 * The keys and English texts mirror snippet/src/form/texts.ts and
 * snippet/src/chat/texts.ts, which WidgetTextsTest checks. Where a widget
 * text holds "%" (a field's label, the score), the Drupal string has an
 * "@" placeholder instead, given "%" as its value: translators then see a
 * placeholder they know to keep, while a bare "%" would look like a typo.
 */
class WidgetTexts {

  use StringTranslationTrait;

  public function __construct(TranslationInterface $string_translation) {
    $this->stringTranslation = $string_translation;
  }

  /**
   * The contact form's texts (sitebeam-form.min.js).
   *
   * Every key of the widget, its field labels too although the enhanced form
   * keeps Drupal's own labels: the list then mirrors the widget's exactly.
   *
   * @return array<string, \Drupal\Core\StringTranslation\TranslatableMarkup>
   *   The texts by the widget's key.
   */
  public function contactForm(): array {
    return [
      'name' => $this->t('Name'),
      'email' => $this->t('Email'),
      'subject' => $this->t('Subject (optional)'),
      'message' => $this->t('Message'),
      'send' => $this->t('Send'),
      'honeypot' => $this->t('Leave this field empty'),
      'privacy' => $this->t('Privacy policy'),
      'sending' => $this->t('Sending…'),
      'sent' => $this->t('Thank you, your message was sent.'),
      'required' => $this->t('Please fill in “@label”.', ['@label' => '%']),
      'emailFormat' => $this->t('Please enter a valid email address.'),
      'tooLong' => $this->t('“@label” is too long.', ['@label' => '%']),
      'invalid' => $this->t('Please check “@label”.', ['@label' => '%']),
      'consent' => $this->t('Please tick the consent box.'),
      'network' => $this->t('Not sent: you seem to be offline. Please try again.'),
      'rateLimited' => $this->t('Not sent: too many messages. Please try again later.'),
      'server' => $this->t('Not sent: the server had a problem. Please try again.'),
      'notConfigured' => $this->t('Not sent: this form is not set up yet. Please contact us another way.'),
      'spam' => $this->t('Not sent: that was too fast. Please wait a few seconds and try again.'),
      'forbidden' => $this->t('Not sent: please reload the page and try again.'),
    ];
  }

  /**
   * The chat's texts (sitebeam-chat.min.js).
   *
   * @return array<string, \Drupal\Core\StringTranslation\TranslatableMarkup>
   *   The texts by the widget's key.
   */
  public function chat(): array {
    return [
      'log' => $this->t('Conversation'),
      'message' => $this->t('Your message'),
      'model' => $this->t('Model'),
      'send' => $this->t('Send'),
      'startOver' => $this->t('Start over'),
      'privacy' => $this->t('Privacy policy'),
      'you' => $this->t('You'),
      'score' => $this->t('Score: @score', ['@score' => '%']),
      'sending' => $this->t('Waiting for the answer…'),
      'warming' => $this->t('The model is warming up, trying again shortly…'),
      'stillWarming' => $this->t('The model is still warming up. Please send your message again in a minute.'),
      'required' => $this->t('Please type a message.'),
      'tooLong' => $this->t('The message is too long.'),
      'consent' => $this->t('Please tick the consent box.'),
      'invalid' => $this->t('The message could not be sent as it is. Please change it.'),
      'network' => $this->t('Not sent: you seem to be offline. Please try again.'),
      'rateLimited' => $this->t('Not sent: too many messages. Please wait a minute and try again.'),
      'closedToday' => $this->t('The chat is closed for today. Please come back tomorrow.'),
      'server' => $this->t('Not sent: the chat had a problem. Please try again.'),
      'notConfigured' => $this->t('The chat is not available right now.'),
      'forbidden' => $this->t('Not sent: please reload the page and try again.'),
    ];
  }

  /**
   * The data-text-* attributes of the texts that differ from the widget's.
   *
   * A text still in English is left out: the widget's own table then speaks
   * the page's language when it knows it (French) and English otherwise, so
   * an untranslated string never hides the widget's French.
   *
   * @param array<string, \Drupal\Core\StringTranslation\TranslatableMarkup> $texts
   *   The texts by the widget's key, from contactForm() or chat().
   */
  public static function attributes(array $texts): Attribute {
    $attributes = new Attribute();
    foreach ($texts as $key => $text) {
      $shown = (string) $text;
      if ($shown !== self::english($text)) {
        $attributes->setAttribute('data-text-' . strtolower((string) preg_replace('/[A-Z]/', '-$0', $key)), $shown);
      }
    }
    return $attributes;
  }

  /**
   * The text as the widget has it built in: the source with "%" put back.
   */
  private static function english(TranslatableMarkup $text): string {
    return strtr($text->getUntranslatedString(), $text->getArguments());
  }

}
