<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Plugin\Mail;

use Drupal\Core\Config\ConfigFactoryInterface;
use Drupal\Core\Mail\Attribute\Mail;
use Drupal\Core\Mail\MailInterface;
use Drupal\Core\Mail\MailManagerInterface;
use Drupal\Core\Plugin\ContainerFactoryPluginInterface;
use Drupal\Core\StringTranslation\TranslatableMarkup;
use Drupal\sitebeam\Api\ApiClient;
use Drupal\sitebeam\Api\ApiResult;
use Drupal\sitebeam\Contract;
use Drupal\sitebeam\Mail\Address;
use Drupal\sitebeam\Mail\AttachmentTooLargeException;
use Drupal\sitebeam\Mail\BodyFormatter;
use Drupal\sitebeam\Mail\HeaderBag;
use Drupal\sitebeam\Mail\MailerSwitch;
use Drupal\sitebeam\Mail\MessageMapper;
use Drupal\sitebeam\Outbox\Outbox;
use Drupal\sitebeam\Outbox\OutboxFullException;
use Psr\Log\LoggerInterface;
use Symfony\Component\DependencyInjection\ContainerInterface;

/**
 * Sends site mail through the Sitebeam API's /v1/email.
 */
#[Mail(
  id: 'sitebeam_mail',
  label: new TranslatableMarkup('Sitebeam API'),
  description: new TranslatableMarkup('Sends mail through the Sitebeam API instead of a local mail server.'),
)]
class SitebeamMail implements MailInterface, ContainerFactoryPluginInterface {

  /**
   * Where format() keeps the message as the previous mailer expects it.
   */
  public const UNFORMATTED = 'sitebeam_unformatted';

  public function __construct(
    protected ApiClient $apiClient,
    protected LoggerInterface $logger,
    protected ConfigFactoryInterface $configFactory,
    protected MailManagerInterface $mailManager,
    protected MailerSwitch $mailerSwitch,
    protected Outbox $outbox,
  ) {}

  /**
   * {@inheritdoc}
   */
  public static function create(ContainerInterface $container, array $configuration, $plugin_id, $plugin_definition): static {
    return new static(
      $container->get('sitebeam.api_client'),
      $container->get('logger.channel.sitebeam'),
      $container->get('config.factory'),
      $container->get('plugin.manager.mail'),
      $container->get('sitebeam.mailer_switch'),
      $container->get('sitebeam.outbox'),
    );
  }

  /**
   * {@inheritdoc}
   *
   * HTML stays HTML; plain text is escaped into paragraphs.
   */
  public function format(array $message) {
    $message[self::UNFORMATTED] = [
      'body' => $message['body'],
      'headers' => $message['headers'],
    ];
    $parts = is_array($message['body']) ? $message['body'] : [$message['body']];
    $message['body'] = BodyFormatter::toHtml($parts, BodyFormatter::isHtml($message['headers']));
    $message['headers'] = ['Content-Type' => 'text/html; charset=UTF-8'] + HeaderBag::without($message['headers'], 'Content-Type', 'Content-Transfer-Encoding');
    return $message;
  }

  /**
   * {@inheritdoc}
   *
   * One request per recipient (see MessageMapper). A copy the instance failed
   * to take for a passing reason (unreachable, time-out, 429, 5xx) waits in
   * the outbox and counts as sent. Recipients the API refused for good are
   * handed to the previous mailer when fallback is on.
   */
  public function mail(array $message) {
    try {
      $payloads = MessageMapper::map($message, function (string $warning) use ($message): void {
        $this->logger->warning('Mail @id: @warning', ['@id' => $message['id'] ?? '?', '@warning' => $warning]);
      });
    }
    catch (AttachmentTooLargeException $e) {
      $this->logger->error('Mail @id not sent through the API: @reason', [
        '@id' => $message['id'] ?? '?',
        '@reason' => $e->getMessage(),
      ]);
      if (!$this->fallbackEnabled()) {
        return FALSE;
      }
      $recipients = MessageMapper::recipients($message, $message['headers'] ?? []);
      return $this->sendWithPreviousMailer($message, array_map(static fn (Address $to): string => $to->email, $recipients));
    }
    catch (\InvalidArgumentException $e) {
      $this->logger->error('Mail @id not sent: @reason', ['@id' => $message['id'] ?? '?', '@reason' => $e->getMessage()]);
      return FALSE;
    }

    $failed = [];
    // Once the instance failed for a passing reason, the other copies of the
    // message wait with it instead of each waiting for the same time-out.
    $passing = NULL;
    foreach ($payloads as $payload) {
      $result = $passing ?? $this->apiClient->sendEmail($payload);
      if ($result->isSuccess()) {
        continue;
      }
      if ($result->isPassingFailure() && $this->defer($message, $payload, $result, $passing === NULL ? 1 : 0)) {
        $passing = $result;
        continue;
      }
      $failed[] = $payload[Contract::EMAIL_FIELD_TO];
      $this->logger->error('Mail @id to @to not sent by the API: @result', [
        '@id' => $message['id'] ?? '?',
        '@to' => $payload[Contract::EMAIL_FIELD_TO],
        '@result' => $result->logSummary(),
      ]);
    }
    if ($failed === []) {
      return TRUE;
    }
    return $this->fallbackEnabled() ? $this->sendWithPreviousMailer($message, $failed) : FALSE;
  }

  /**
   * Puts one copy into the outbox; FALSE when the outbox is full.
   *
   * The site has then accepted the mail for delivery, as an MTA does: the
   * outbox sends it on cron when the instance is back.
   */
  protected function defer(array $message, array $payload, ApiResult $result, int $tries): bool {
    $context = [
      '@id' => $message['id'] ?? '?',
      '@to' => $payload[Contract::EMAIL_FIELD_TO],
      '@result' => $result->logSummary(),
    ];
    try {
      $this->outbox->defer($payload, (string) ($message['id'] ?? ''), $result, $tries);
    }
    catch (OutboxFullException $e) {
      $this->logger->error('Mail @id to @to not sent by the API (@result) and not kept for later: @reason', $context + ['@reason' => $e->getMessage()]);
      return FALSE;
    }
    $this->logger->warning('Mail @id to @to waits in the outbox: @result', $context);
    return TRUE;
  }

  /**
   * True when a message the API did not take goes to the previous mailer.
   */
  protected function fallbackEnabled(): bool {
    return (bool) $this->configFactory->get('sitebeam.settings')->get('mail.fallback');
  }

  /**
   * Hands each failed recipient its own copy, so no Bcc is disclosed.
   */
  protected function sendWithPreviousMailer(array $message, array $recipients): bool {
    $previous_id = $this->mailerSwitch->previousMailerId();
    $previous = $this->mailManager->createInstance($previous_id);
    $original = $message[self::UNFORMATTED] ?? ['body' => [$message['body']], 'headers' => $message['headers']];
    unset($message[self::UNFORMATTED]);
    $all_sent = TRUE;
    foreach ($recipients as $recipient) {
      $copy = [
        'to' => $recipient,
        'body' => $original['body'],
        'headers' => HeaderBag::without($original['headers'], 'Cc', 'Bcc'),
      ] + $message;
      $sent = (bool) $previous->mail($previous->format($copy));
      $this->logger->notice('Mail @id to @to handed to the @mailer mailer: @outcome', [
        '@id' => $message['id'] ?? '?',
        '@to' => $recipient,
        '@mailer' => $previous_id,
        '@outcome' => $sent ? 'sent' : 'failed too',
      ]);
      $all_sent = $all_sent && $sent;
    }
    return $all_sent;
  }

}
