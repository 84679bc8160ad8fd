<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Mail;

use Drupal\sitebeam\Contract;

/**
 * Fits a message's attachments into the API's one attachment block.
 *
 * Attachments follow the convention of Mime Mail and Symfony Mailer:
 * $message['params']['attachments'][] = ['filepath' or 'filecontent',
 * 'filename', 'filemime']. One file travels as it is; several travel as one
 * zip archive, since the API takes a single attachment per message.
 */
final class AttachmentPacker {

  public const ZIP_FILE_NAME = 'attachments.zip';

  /**
   * The attachment block, or NULL when the message has no attachment.
   *
   * @throws \InvalidArgumentException
   *   A file that cannot be read, or files over the API's size limit
   *   (AttachmentTooLargeException).
   */
  public static function pack(array $attachments): ?array {
    $files = array_map(self::readFile(...), array_values(array_filter($attachments)));
    if ($files === []) {
      return NULL;
    }
    [$name, $mime, $content] = count($files) === 1 ? $files[0] : self::zip($files);
    if (strlen($content) > Contract::LIMIT_ATTACHMENT_BYTES) {
      throw self::tooLarge($name);
    }
    return [
      Contract::ATTACHMENT_FIELD_MIME_TYPE => $mime,
      Contract::ATTACHMENT_FIELD_FILE_NAME => $name,
      Contract::ATTACHMENT_FIELD_B64 => base64_encode($content),
    ];
  }

  /**
   * Reads one attachment into [file name, media type, bytes].
   */
  private static function readFile(mixed $attachment): array {
    if (is_string($attachment)) {
      $attachment = ['filepath' => $attachment];
    }
    if (is_object($attachment)) {
      $attachment = (array) $attachment;
    }
    $path = $attachment['filepath'] ?? $attachment['uri'] ?? NULL;
    $name = self::safeFileName((string) ($attachment['filename'] ?? (is_string($path) ? basename($path) : 'attachment')));
    if (isset($attachment['filecontent'])) {
      $content = (string) $attachment['filecontent'];
    }
    elseif (is_string($path) && is_readable($path)) {
      // Sized before it is read: a file far over the limit never fills the
      // memory, and no more than one byte over the limit is ever read.
      if ((int) filesize($path) > Contract::LIMIT_ATTACHMENT_BYTES) {
        throw self::tooLarge($name);
      }
      $content = (string) file_get_contents($path, FALSE, NULL, 0, Contract::LIMIT_ATTACHMENT_BYTES + 1);
    }
    else {
      throw new \InvalidArgumentException(sprintf('The attachment "%s" cannot be read.', (string) ($path ?? $attachment['filename'] ?? '?')));
    }
    $mime = (string) ($attachment['filemime'] ?? '');
    return [$name, preg_match('~^[\w.+-]+/[\w.+-]+$~', $mime) ? $mime : 'application/octet-stream', $content];
  }

  /**
   * The refusal of an attachment over the API's size limit.
   */
  private static function tooLarge(string $name): AttachmentTooLargeException {
    return new AttachmentTooLargeException(sprintf('The attachment "%s" is larger than the API accepts (%d bytes).', $name, Contract::LIMIT_ATTACHMENT_BYTES));
  }

  /**
   * Several files as one attachments.zip.
   */
  private static function zip(array $files): array {
    $path = tempnam(sys_get_temp_dir(), 'sitebeam');
    $zip = new \ZipArchive();
    if ($path === FALSE || $zip->open($path, \ZipArchive::OVERWRITE) !== TRUE) {
      throw new \InvalidArgumentException('A zip archive for the attachments cannot be created.');
    }
    $used = [];
    foreach ($files as [$name, , $content]) {
      $zip->addFromString(self::uniqueName($name, $used), $content);
    }
    $zip->close();
    $content = (string) file_get_contents($path);
    unlink($path);
    return [self::ZIP_FILE_NAME, 'application/zip', $content];
  }

  /**
   * The file name, numbered when another file already has it.
   */
  private static function uniqueName(string $name, array &$used): string {
    $candidate = $name;
    $dot = strrpos($name, '.');
    for ($i = 2; isset($used[strtolower($candidate)]); $i++) {
      $candidate = $dot === FALSE || $dot === 0 ? "$name-$i" : substr($name, 0, $dot) . "-$i" . substr($name, $dot);
    }
    $used[strtolower($candidate)] = TRUE;
    return $candidate;
  }

  /**
   * The contract refuses '/', '\' and control characters in file names.
   */
  private static function safeFileName(string $name): string {
    $name = trim((string) preg_replace('~[/\\\\\x00-\x1F\x7F]+~', '_', basename(str_replace('\\', '/', $name))));
    return $name === '' ? 'attachment' : $name;
  }

}
