<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Api;

use GuzzleHttp\Psr7\StreamDecoratorTrait;
use GuzzleHttp\Psr7\Utils;
use Psr\Http\Message\StreamInterface;

/**
 * Where an answer of the instance is written: at most $limit bytes.
 *
 * A write beyond the limit keeps nothing more and answers 0 bytes written:
 * cURL then stops the transfer (and Guzzle's other handlers stop copying),
 * so no answer is ever read whole into memory or onto disk.
 */
final class AnswerSink implements StreamInterface {

  use StreamDecoratorTrait;

  /**
   * Where the kept bytes are.
   */
  private StreamInterface $stream;

  /**
   * Whether more than the limit came.
   */
  private bool $overflowed = FALSE;

  public function __construct(private readonly int $limit) {
    $this->stream = Utils::streamFor(Utils::tryFopen('php://temp', 'r+'));
  }

  /**
   * {@inheritdoc}
   */
  public function write($string): int {
    $room = $this->limit - (int) $this->stream->getSize();
    if (strlen($string) <= $room) {
      return $this->stream->write($string);
    }
    $this->overflowed = TRUE;
    if ($room > 0) {
      $this->stream->write(substr($string, 0, $room));
    }
    return 0;
  }

  /**
   * Whether the answer was longer than the limit.
   */
  public function overflowed(): bool {
    return $this->overflowed;
  }

  /**
   * What was kept, from its start.
   */
  public function contents(): string {
    $this->stream->seek(0);
    return $this->stream->getContents();
  }

}
