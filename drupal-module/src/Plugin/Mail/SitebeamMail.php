<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Plugin\Mail;

use Drupal\Core\Config\ConfigFactoryInterface;
use Drupal\Core\Database\DatabaseException;
use Drupal\Core\Mail\Attribute\Mail;
use Drupal\Core\Mail\MailInterface;
use Drupal\Core\Mail\MailManagerInterface;
use Drupal\Core\Plugin\ContainerFactoryPluginInterface;
use Drupal\Core\StringTranslation\TranslatableMarkup;
use Drupal\sitebeam\Api\ApiClient;
use Drupal\sitebeam\Contract;
use Drupal\sitebeam\Mail\Address;
use Drupal\sitebeam\Mail\AttachmentTooLargeException;
use Drupal\sitebeam\Mail\BodyFormatter;
use Drupal\sitebeam\Mail\HeaderBag;
use Drupal\sitebeam\Mail\MailerSwitch;
use Drupal\sitebeam\Mail\MessageMapper;
use Drupal\sitebeam\Outbox\DeliveryState;
use Drupal\sitebeam\Outbox\Outbox;
use Drupal\sitebeam\Outbox\OutboxFullException;
use Drupal\sitebeam\Outbox\OutboxSender;
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
    protected OutboxSender $sender,
    protected DeliveryState $deliveryState,
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
      $container->get('sitebeam.outbox_sender'),
      $container->get('sitebeam.delivery_state'),
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
   * the outbox and counts as sent; so does every copy while the circuit
   * breaker is open (DeliveryState). Recipients the API refused for good, or
   * whose copy could not be kept, are handed to the previous mailer when
   * fallback is on.
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

    // Copies not sent and not kept: only these may go to the fallback, so a
    // recipient whose copy waits in the outbox never gets a second one.
    $failed = [];
    // While the breaker is open, or once the instance failed for a passing
    // reason, the copies wait in the outbox instead of each waiting for the
    // same time-out.
    $held_until = $this->deliveryState->breakerOpen() ? $this->deliveryState->get()['breaker_until'] : NULL;
    $passing = NULL;
    foreach ($payloads as $payload) {
      $to = $payload[Contract::EMAIL_FIELD_TO];
      if ($held_until !== NULL) {
        $reason = $this->deliveryState->heldReason();
        if (!$this->keep($message, $payload, fn (): int => $this->outbox->hold($payload, (string) ($message['id'] ?? ''), $reason, $held_until), $reason)) {
          $failed[] = $to;
        }
        continue;
      }
      $result = $passing;
      if ($result === NULL) {
        $result = $this->apiClient->sendEmail($payload);
        $this->sender->noteResult($result);
      }
      if ($result->isSuccess()) {
        continue;
      }
      $tries = $passing === NULL ? 1 : 0;
      if ($result->isPassingFailure() && $this->keep($message, $payload, fn (): int => $this->outbox->defer($payload, (string) ($message['id'] ?? ''), $result, $tries), $result->logSummary())) {
        $passing = $result;
        continue;
      }
      $failed[] = $to;
      $this->logger->error('Mail @id to @to not sent by the API: @result', [
        '@id' => $message['id'] ?? '?',
        '@to' => $to,
        '@result' => $result->logSummary(),
      ]);
    }
    if ($failed === []) {
      return TRUE;
    }
    return $this->fallbackEnabled() ? $this->sendWithPreviousMailer($message, $failed) : FALSE;
  }

  /**
   * Puts one copy into the outbox; FALSE when it could not be kept.
   *
   * The site has then accepted the mail for delivery, as an MTA does: the
   * outbox sends it when the instance is back. A full outbox, or any error
   * of its storage (no table before update.php, a payload over the
   * database's packet size…), is logged and the copy counts as not sent:
   * never an error page.
   *
   * @param array $message
   *   The message.
   * @param array $payload
   *   The copy.
   * @param callable $store
   *   Stores it: Outbox::defer() or Outbox::hold().
   * @param string $why
   *   Why it waits, for the log.
   */
  protected function keep(array $message, array $payload, callable $store, string $why): bool {
    $context = [
      '@id' => $message['id'] ?? '?',
      '@to' => $payload[Contract::EMAIL_FIELD_TO],
      '@result' => $why,
    ];
    try {
      $store();
    }
    catch (OutboxFullException | DatabaseException | \JsonException $e) {
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
