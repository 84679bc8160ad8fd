<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Controller;

use Drupal\Component\Datetime\TimeInterface;
use Drupal\Component\Utility\Html;
use Drupal\Core\Controller\ControllerBase;
use Drupal\Core\Datetime\DateFormatterInterface;
use Drupal\Core\Pager\PagerManagerInterface;
use Drupal\Core\StringTranslation\ByteSizeMarkup;
use Drupal\Core\StringTranslation\TranslatableMarkup;
use Drupal\Core\Url;
use Drupal\sitebeam\Api\ApiClient;
use Drupal\sitebeam\Api\CredentialsFactory;
use Drupal\sitebeam\Contract;
use Drupal\sitebeam\Form\ApiResultMessages;
use Drupal\sitebeam\Form\OutboxBulkForm;
use Drupal\sitebeam\Mail\AttachmentPacker;
use Drupal\sitebeam\Outbox\Outbox;
use Drupal\sitebeam\Outbox\OutboxItem;
use Drupal\sitebeam\OutboxReport\DeliveryStatus;
use Drupal\sitebeam\OutboxReport\ErrorInWords;
use Drupal\sitebeam\OutboxReport\OutboxActions;
use Drupal\sitebeam\OutboxReport\OutboxListing;
use Symfony\Component\HttpFoundation\RedirectResponse;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpKernel\Exception\NotFoundHttpException;

/**
 * Reports → Sitebeam outbox: the list, one mail, Send now, Try now.
 */
class OutboxReportController extends ControllerBase {

  /**
   * Lines of a mail's body the single-mail page shows.
   */
  private const BODY_LINES = 15;

  public function __construct(
    protected Outbox $outbox,
    protected OutboxListing $listing,
    protected OutboxActions $actions,
    protected DeliveryStatus $deliveryStatus,
    protected ErrorInWords $errorInWords,
    protected DateFormatterInterface $dateFormatter,
    protected PagerManagerInterface $pagerManager,
    protected ApiClient $apiClient,
    protected CredentialsFactory $credentialsFactory,
    protected TimeInterface $time,
  ) {}

  /**
   * The list: status line, filter, bulk actions, a sortable table, a pager.
   */
  public function report(Request $request): array {
    $filter = $request->query->get(OutboxListing::FILTER);
    $filter = in_array($filter, OutboxListing::FILTERS, TRUE) ? $filter : NULL;
    $counts = $this->listing->counts();
    $header = $this->header();
    $rows = array_map($this->row(...), $this->listing->page($filter, $header));
    $build = [
      '#attached' => ['library' => ['sitebeam/outbox_report']],
      '#cache' => ['max-age' => 0],
      'status' => $this->deliveryStatus->line($counts),
    ];
    $failures = $this->listing->failures();
    if ($failures !== NULL) {
      $build['failed'] = $this->failedMessage($counts, $failures);
    }
    $build['summary'] = [
      '#type' => 'html_tag',
      '#tag' => 'p',
      '#value' => $this->summary(),
    ];
    $build['filter'] = $this->filterLinks($counts, $filter);
    $build['bulk'] = $this->bulkActions($counts);
    if ($rows !== []) {
      $build['range'] = [
        '#type' => 'html_tag',
        '#tag' => 'p',
        '#value' => $this->range(count($rows)),
        '#attributes' => ['class' => ['sitebeam-outbox-range']],
      ];
    }
    $build['table'] = [
      '#type' => 'table',
      '#header' => $header,
      '#rows' => $rows,
      '#empty' => $this->emptyText($filter),
      '#attributes' => ['class' => ['sitebeam-outbox']],
    ];
    $build['pager'] = ['#type' => 'pager'];
    return $build;
  }

  /**
   * One mail: its headers, the start of its body, its attachment, its tries.
   */
  public function mail(int $id): array {
    $row = $this->listing->mail($id);
    if ($row === NULL) {
      throw new NotFoundHttpException();
    }
    $payload = $row->payload;
    $field = static fn (string $name): string => is_scalar($payload[$name] ?? NULL) ? (string) $payload[$name] : '';
    $details = [
      [$this->t('To'), $row->recipient],
      [$this->t('From'), $this->address($field(Contract::EMAIL_FIELD_FROM_NAME), $field(Contract::EMAIL_FIELD_FROM))],
      [$this->t('Reply to'), $field(Contract::EMAIL_FIELD_REPLYTO)],
      [$this->t('Subject'), $row->subject],
      [$this->t('Sent by'), $row->kind === OutboxItem::KIND_CONTACT ? $this->t('the contact form') : $row->mail_id],
      [$this->t('Queued'), $this->dateFormatter->format((int) $row->created, 'long')],
      [$this->t('State'), $this->stateText($row)],
      [$this->t('Next try'), $this->nextTryText($row)],
      [$this->t('Size'), ByteSizeMarkup::create((int) $row->bytes)],
      [$this->t('Attachments'), implode(', ', $this->attachmentNames($row)) ?: $this->t('none')],
    ];
    $build = [
      '#attached' => ['library' => ['sitebeam/outbox_report']],
      '#cache' => ['max-age' => 0],
      'secret' => [
        '#theme' => 'status_messages',
        '#message_list' => ['warning' => [$this->t('This mail may hold a password-reset link or another secret: show this page to no one, and share no screenshot of it.')]],
        '#status_headings' => ['warning' => $this->t('Warning message')],
      ],
      'details' => [
        '#type' => 'table',
        '#rows' => array_map(static fn (array $detail): array => [
          ['data' => $detail[0], 'header' => TRUE],
          $detail[1] === '' ? '—' : $detail[1],
        ], $details),
        '#attributes' => ['class' => ['sitebeam-outbox-mail']],
      ],
      'body' => [
        '#type' => 'details',
        '#title' => $this->t('The first lines of the body'),
        '#open' => TRUE,
        'text' => [
          '#type' => 'html_tag',
          '#tag' => 'pre',
          '#value' => Html::escape($this->firstLines($field(Contract::EMAIL_FIELD_CONTENT))),
          '#attributes' => ['class' => ['sitebeam-outbox-body']],
        ],
      ],
      'tries' => [
        '#type' => 'table',
        '#caption' => $this->t('Tries'),
        '#header' => [$this->t('When'), $this->t('What happened'), $this->t('As the instance said it')],
        '#rows' => $this->tries($row),
        '#empty' => $this->t('Not tried yet.'),
        '#attributes' => ['class' => ['sitebeam-outbox-tries']],
      ],
      'actions' => ['#type' => 'actions'],
    ];
    foreach ($this->operations($row) as $key => $link) {
      if ($key !== 'view') {
        $build['actions'][$key] = [
          '#type' => 'link',
          '#title' => $link['title'],
          '#url' => $link['url'],
          '#attributes' => ['class' => $key === 'delete' ? ['button', 'button--danger'] : ['button']],
        ];
      }
    }
    $build['actions']['back'] = [
      '#type' => 'link',
      '#title' => $this->t('Back to the outbox'),
      '#url' => Url::fromRoute('sitebeam.outbox'),
    ];
    return $build;
  }

  /**
   * An address with its name: "Name <address>", or either alone.
   */
  protected function address(string $name, string $address): string {
    return match (TRUE) {
      $name !== '' && $address !== '' => "$name <$address>",
      default => $name . $address,
    };
  }

  /**
   * The single-mail page's title.
   */
  public function mailTitle(int $id): TranslatableMarkup {
    $item = $this->outbox->get($id);
    return $item === NULL
      ? $this->t('Mail not found')
      : $this->t('Mail to @to: @subject', ['@to' => $item->recipient, '@subject' => $item->subject]);
  }

  /**
   * Sends one mail now, then back to the list (or to confirm a refusal).
   */
  public function sendNow(int $id): RedirectResponse {
    $confirm = $this->actions->sendNow($id);
    return $confirm === NULL ? $this->redirect('sitebeam.outbox') : new RedirectResponse($confirm->setAbsolute()->toString());
  }

  /**
   * Sends the waiting mail that is due first, whatever its time: Try now.
   */
  public function tryNow(): RedirectResponse {
    $id = $this->listing->firstWaiting();
    if ($id === NULL) {
      $this->messenger()->addStatus($this->t('No mail waits.'));
      return $this->redirect('sitebeam.outbox');
    }
    return $this->sendNow($id);
  }

  /**
   * The settings page's Test connection, from the outbox.
   */
  public function testConnection(): RedirectResponse {
    $credentials = $this->credentialsFactory->siteCredentials();
    $messages = new ApiResultMessages($this->messenger(), $this->getStringTranslation());
    $messages->reportConnection($this->apiClient->withCredentials($credentials)->probeEmailApi(), NULL, $credentials->baseUrl());
    return $this->redirect('sitebeam.outbox');
  }

  /**
   * The table's header: sortable columns, the less needed hidden on phones.
   */
  protected function header(): array {
    return [
      ['data' => $this->t('Subject'), 'field' => 'o.subject'],
      ['data' => $this->t('Recipient'), 'field' => 'o.recipient', 'class' => [RESPONSIVE_PRIORITY_MEDIUM]],
      ['data' => $this->t('State'), 'field' => 'o.state'],
      ['data' => $this->t('Queued'), 'field' => 'o.created', 'sort' => 'asc', 'class' => [RESPONSIVE_PRIORITY_MEDIUM]],
      ['data' => $this->t('Tries'), 'field' => 'o.tries', 'class' => [RESPONSIVE_PRIORITY_LOW]],
      ['data' => $this->t('Last error'), 'class' => [RESPONSIVE_PRIORITY_LOW]],
      ['data' => $this->t('Next try'), 'field' => 'o.next_try', 'class' => [RESPONSIVE_PRIORITY_MEDIUM]],
      ['data' => $this->t('Operations')],
    ];
  }

  /**
   * One row of the table; its cells escaped by the table's template.
   */
  protected function row(object $row): array {
    $subject = [
      '#type' => 'link',
      '#title' => $row->subject === '' ? $this->t('(no subject)') : $row->subject,
      '#url' => Url::fromRoute('sitebeam.outbox_mail', ['id' => $row->id]),
    ];
    $marks = [];
    if ($row->attachment !== '') {
      $marks[] = $this->mark('📎', $this->t('With an attachment: @name', ['@name' => $row->attachment]));
    }
    if ($row->kind === OutboxItem::KIND_CONTACT) {
      $marks[] = [
        '#type' => 'html_tag',
        '#tag' => 'span',
        '#value' => $this->t('Contact form'),
        '#attributes' => ['class' => ['sitebeam-outbox__kind']],
      ];
    }
    $queued = $this->timeElement((int) $row->created, $this->deliveryStatus->ago((int) $row->created));
    $error = $row->last_error === '' ? '' : $this->errorInWords->describe($row->last_error);
    return [
      'data' => [
        ['data' => [$subject, ...$marks], 'class' => ['sitebeam-outbox__subject']],
        ['data' => $row->recipient, 'class' => [RESPONSIVE_PRIORITY_MEDIUM, 'sitebeam-outbox__recipient']],
        $this->stateText($row),
        ['data' => $queued, 'class' => [RESPONSIVE_PRIORITY_MEDIUM]],
        ['data' => $row->tries, 'class' => [RESPONSIVE_PRIORITY_LOW]],
        ['data' => $error, 'class' => [RESPONSIVE_PRIORITY_LOW]],
        ['data' => $this->nextTryCell($row), 'class' => [RESPONSIVE_PRIORITY_MEDIUM]],
        ['data' => ['#type' => 'operations', '#links' => $this->operations($row)]],
      ],
      'data-sitebeam-outbox-id' => $row->id,
    ];
  }

  /**
   * What the owner can do with a mail, the likeliest first.
   *
   * Waiting: Send now. Given up: Send again. Refused for good: Delete first,
   * and Send again only behind a confirmation naming the refusal.
   */
  protected function operations(object $row): array {
    $refused = $row->state === OutboxItem::FAILED && $row->failure === OutboxItem::FAILURE_REFUSED;
    $send = ['url' => Url::fromRoute('sitebeam.outbox_send', ['id' => $row->id])];
    $delete = [
      'title' => $this->t('Delete'),
      'url' => Url::fromRoute('sitebeam.outbox_delete', ['id' => $row->id]),
    ];
    $operations = $refused ? ['delete' => $delete] : [];
    if ($row->state === OutboxItem::WAITING && !$this->listing->isBeingSent($row)) {
      $operations['send'] = $send + ['title' => $this->t('Send now')];
    }
    elseif ($row->state === OutboxItem::FAILED && !$refused) {
      $operations['send'] = $send + ['title' => $this->t('Send again')];
    }
    $operations['view'] = [
      'title' => $this->t('View'),
      'url' => Url::fromRoute('sitebeam.outbox_mail', ['id' => $row->id]),
    ];
    if ($refused) {
      $operations['send_again'] = [
        'title' => $this->t('Send again…'),
        'url' => Url::fromRoute('sitebeam.outbox_send_again', ['id' => $row->id]),
      ];
    }
    return $operations + ['delete' => $delete];
  }

  /**
   * Waiting, being sent, refused, given up.
   */
  protected function stateText(object $row): TranslatableMarkup {
    return match (TRUE) {
      $this->listing->isBeingSent($row) => $this->t('Being sent'),
      $row->state === OutboxItem::WAITING => $this->t('Waiting'),
      $row->failure === OutboxItem::FAILURE_REFUSED => $this->t('Refused'),
      $row->failure === OutboxItem::FAILURE_EXPIRED => $this->t('Given up'),
      default => $this->t('Not delivered'),
    };
  }

  /**
   * When the mail is tried next, in words.
   */
  protected function nextTryText(object $row): TranslatableMarkup {
    return match (TRUE) {
      $row->state === OutboxItem::FAILED => $this->t('Not tried again'),
      $this->listing->isBeingSent($row) => $this->t('Now'),
      default => $this->deliveryStatus->nextTry((int) $row->next_try),
    };
  }

  /**
   * The next try's cell: a future time carries its date for machines.
   */
  protected function nextTryCell(object $row): array {
    $text = $this->nextTryText($row);
    return $row->state === OutboxItem::WAITING && (int) $row->next_try > $this->time->getCurrentTime()
      ? $this->timeElement((int) $row->next_try, $text)
      : ['#plain_text' => (string) $text];
  }

  /**
   * A <time> element: words shown, the date in the user's time zone on hover.
   */
  protected function timeElement(int $timestamp, TranslatableMarkup $text): array {
    return [
      '#type' => 'html_tag',
      '#tag' => 'time',
      '#value' => $text,
      '#attributes' => [
        'datetime' => $this->dateFormatter->format($timestamp, 'custom', \DateTimeInterface::ATOM),
        'title' => $this->dateFormatter->format($timestamp, 'short'),
      ],
    ];
  }

  /**
   * A small sign beside the subject, its meaning written out for all.
   */
  protected function mark(string $sign, TranslatableMarkup $meaning): array {
    return [
      '#type' => 'inline_template',
      '#template' => ' <span class="sitebeam-outbox__mark" title="{{ meaning }}" aria-hidden="true">{{ sign }}</span><span class="visually-hidden">{{ meaning }}</span>',
      '#context' => ['sign' => $sign, 'meaning' => $meaning],
    ];
  }

  /**
   * The message for mail not delivered: count, cause in words, since when.
   */
  protected function failedMessage(array $counts, array $failures): array {
    $message = $this->formatPlural($counts[OutboxItem::FAILED],
      '1 mail was not delivered since @time: the instance refused it for good, or it was given up. The cause: @error. <a href=":url">Show it</a> to send it again or delete it.',
      '@count mails were not delivered since @time: the instance refused them for good, or they were given up. The last cause: @error. <a href=":url">Show them</a> to send them again or delete them.',
      [
        '@time' => $this->deliveryStatus->when($failures['since']),
        '@error' => $this->errorInWords->describe((string) $failures['latest']->last_error),
        ':url' => Url::fromRoute('sitebeam.outbox', [], ['query' => [OutboxListing::FILTER => OutboxItem::FAILED]])->toString(),
      ]);
    return [
      '#theme' => 'status_messages',
      '#message_list' => ['error' => [$message]],
      '#status_headings' => ['error' => $this->t('Error message')],
    ];
  }

  /**
   * What the outbox is, and how full.
   */
  protected function summary(): TranslatableMarkup {
    [$mails, $bytes] = $this->outbox->size();
    $settings = $this->config('sitebeam.settings');
    return $this->t('Mail the Sitebeam instance could not take for a passing reason (unreachable, time-out, rate limit, server error) waits here and is tried again until it is delivered, or given up after @hours hours. Mail the instance refused for good stays here too, as not delivered, until you send it again or delete it. The outbox holds @mails of at most @max_mails mails, @size of at most @max_size.', [
      '@hours' => intdiv($this->outbox->lifetime(), 3600),
      '@mails' => $mails,
      '@max_mails' => (int) $settings->get('mail.outbox.max_mails'),
      '@size' => ByteSizeMarkup::create($bytes),
      '@max_size' => ByteSizeMarkup::create((int) $settings->get('mail.outbox.max_bytes')),
    ]);
  }

  /**
   * All (n) | Waiting (n) | Not delivered (n): links keeping the sort.
   */
  protected function filterLinks(array $counts, ?string $filter): array {
    $items = [];
    $labels = [
      '' => $this->t('All (@count)', ['@count' => $counts['all']]),
      OutboxItem::WAITING => $this->t('Waiting (@count)', ['@count' => $counts[OutboxItem::WAITING]]),
      OutboxItem::FAILED => $this->t('Not delivered (@count)', ['@count' => $counts[OutboxItem::FAILED]]),
    ];
    foreach ($labels as $state => $label) {
      $current = ($filter ?? '') === $state;
      $items[] = [
        '#type' => 'link',
        '#title' => $label,
        '#url' => Url::fromRoute('sitebeam.outbox', [], ['query' => $state === '' ? [] : [OutboxListing::FILTER => $state]]),
        '#attributes' => $current ? ['aria-current' => 'page', 'class' => ['is-active']] : [],
      ];
    }
    return [
      '#theme' => 'item_list',
      '#items' => $items,
      '#attributes' => ['class' => ['sitebeam-outbox-filter']],
      '#wrapper_attributes' => ['class' => ['sitebeam-outbox-filter-wrapper']],
    ];
  }

  /**
   * Retry all, Delete all not delivered, Delete all contact messages.
   */
  protected function bulkActions(array $counts): array {
    $actions = ['#type' => 'actions', '#attributes' => ['class' => ['sitebeam-outbox-bulk']]];
    $button = ['button', 'button--small'];
    $danger = [...$button, 'button--danger'];
    $buttons = [
      OutboxBulkForm::RETRY => [$counts[OutboxItem::WAITING], $this->t('Retry all'), $button],
      OutboxBulkForm::DELETE_FAILED => [$counts[OutboxItem::FAILED], $this->t('Delete all not delivered'), $danger],
      OutboxBulkForm::DELETE_CONTACT => [
        $counts[OutboxItem::KIND_CONTACT],
        $this->t('Delete all contact messages'),
        $danger,
      ],
    ];
    foreach ($buttons as $action => [$count, $title, $classes]) {
      if ($count > 0) {
        $actions[$action] = [
          '#type' => 'link',
          '#title' => $title,
          '#url' => Url::fromRoute('sitebeam.outbox_bulk', ['action' => $action]),
          '#attributes' => ['class' => $classes],
        ];
      }
    }
    return $actions;
  }

  /**
   * The rows shown, "1–50 of 508", from the pager the listing's query set.
   */
  protected function range(int $shown): TranslatableMarkup {
    $pager = $this->pagerManager->getPager();
    $first = $pager->getCurrentPage() * $pager->getLimit() + 1;
    return $this->t('@first–@last of @total', [
      '@first' => $first,
      '@last' => $first + $shown - 1,
      '@total' => $pager->getTotalItems(),
    ]);
  }

  /**
   * What an empty list means, never more than it knows.
   */
  protected function emptyText(?string $filter): TranslatableMarkup {
    return match ($filter) {
      OutboxItem::WAITING => $this->t('No mail waits for the instance.'),
      OutboxItem::FAILED => $this->t('No mail is kept as not delivered.'),
      default => $this->t('The outbox is empty: no mail waits for the instance and none is kept as not delivered.'),
    };
  }

  /**
   * The attachment's file names: the files inside Sitebeam's zip of several.
   *
   * @return string[]
   *   The names.
   */
  protected function attachmentNames(object $row): array {
    $attachment = $row->payload[Contract::EMAIL_FIELD_ATTACHMENT] ?? NULL;
    $name = is_array($attachment) && is_string($attachment[Contract::ATTACHMENT_FIELD_FILE_NAME] ?? NULL)
      ? $attachment[Contract::ATTACHMENT_FIELD_FILE_NAME]
      : (string) $row->attachment;
    if ($name !== AttachmentPacker::ZIP_FILE_NAME || !is_string($attachment[Contract::ATTACHMENT_FIELD_B64] ?? NULL)) {
      return $name === '' ? [] : [$name];
    }
    $path = tempnam(sys_get_temp_dir(), 'sitebeam-outbox-');
    $names = [];
    $zip = new \ZipArchive();
    if ($path !== FALSE && file_put_contents($path, base64_decode($attachment[Contract::ATTACHMENT_FIELD_B64], TRUE) ?: '') > 0 && $zip->open($path, \ZipArchive::RDONLY) === TRUE) {
      for ($i = 0; $i < $zip->numFiles; $i++) {
        $names[] = (string) $zip->getNameIndex($i);
      }
      $zip->close();
    }
    if ($path !== FALSE) {
      unlink($path);
    }
    return $names === [] ? [$name] : $names;
  }

  /**
   * The body's first lines as text: tags removed, entities decoded.
   */
  protected function firstLines(string $content): string {
    $text = html_entity_decode(strip_tags((string) preg_replace('~<br\s*/?>|</p>~i', "\n", $content)), ENT_QUOTES | ENT_HTML5, 'UTF-8');
    $lines = array_values(array_filter(array_map('rtrim', explode("\n", str_replace("\r", '', $text))), static fn (string $line): bool => $line !== ''));
    $shown = array_slice($lines, 0, self::BODY_LINES);
    if (count($lines) > count($shown)) {
      $shown[] = (string) $this->formatPlural(count($lines) - count($shown), '… and 1 more line', '… and @count more lines');
    }
    return Contract::visibleControls(implode("\n", $shown));
  }

  /**
   * Every try kept in the history: when, in words, and as written.
   */
  protected function tries(object $row): array {
    $tries = OutboxListing::history($row);
    if ($tries === [] && (int) $row->tries > 0 && $row->last_error !== '') {
      // Rows written before the history was kept have their last error only.
      $tries[] = ['at' => (int) $row->last_try, 'status' => -1, 'error' => $row->last_error];
    }
    return array_map(fn (array $try): array => [
      $try['at'] > 0 ? $this->dateFormatter->format($try['at'], 'short') : $this->t('unknown'),
      $this->errorInWords->describe($try['error'], $try['status'] >= 0 ? $try['status'] : NULL),
      ['data' => ['#plain_text' => $try['error']], 'class' => ['sitebeam-outbox__raw']],
    ], array_reverse($tries));
  }

}
