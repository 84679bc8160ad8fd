<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Unit;

use Drupal\sitebeam\Contract;
use Drupal\sitebeam\Mail\AttachmentPacker;
use Drupal\sitebeam\Mail\AttachmentTooLargeException;
use Drupal\Tests\sitebeam\Unit\Doubles\OversizedFileStream;
use PHPUnit\Framework\Attributes\CoversClass;
use PHPUnit\Framework\Attributes\Group;
use PHPUnit\Framework\TestCase;

/**
 * @coversDefaultClass \Drupal\sitebeam\Mail\AttachmentPacker
 * @group sitebeam
 */
#[CoversClass(AttachmentPacker::class)]
#[Group('sitebeam')]
final class AttachmentPackerTest extends TestCase {

  /**
   * Files to delete after the test.
   */
  private array $tempFiles = [];

  /**
   * {@inheritdoc}
   */
  protected function tearDown(): void {
    array_map('unlink', array_filter($this->tempFiles, 'is_file'));
  }

  /**
   * Tests that no attachment.
   */
  public function testNoAttachment(): void {
    $this->assertNull(AttachmentPacker::pack([]));
  }

  /**
   * Tests that one file travels as it is.
   */
  public function testOneFileTravelsAsItIs(): void {
    $block = AttachmentPacker::pack([
      ['filecontent' => '%PDF-1.4', 'filename' => 'invoice.pdf', 'filemime' => 'application/pdf'],
    ]);
    $this->assertSame([
      'mime_type' => 'application/pdf',
      'file_name' => 'invoice.pdf',
      'b64' => base64_encode('%PDF-1.4'),
    ], $block);
  }

  /**
   * Tests that file is read from its path.
   */
  public function testFileIsReadFromItsPath(): void {
    $path = $this->tempFile('hello');
    $block = AttachmentPacker::pack([['filepath' => $path, 'filemime' => 'text/plain']]);
    $this->assertSame(basename($path), $block['file_name']);
    $this->assertSame('hello', base64_decode($block['b64']));
  }

  /**
   * Tests that several files travel as one zip.
   */
  public function testSeveralFilesTravelAsOneZip(): void {
    $block = AttachmentPacker::pack([
      ['filecontent' => 'one', 'filename' => 'notes.txt', 'filemime' => 'text/plain'],
      ['filecontent' => 'two', 'filename' => 'notes.txt', 'filemime' => 'text/plain'],
      ['filepath' => $this->tempFile('three'), 'filename' => 'c.csv'],
    ]);
    $this->assertSame('application/zip', $block['mime_type']);
    $this->assertSame('attachments.zip', $block['file_name']);

    $zip_path = $this->tempFile(base64_decode($block['b64']));
    $zip = new \ZipArchive();
    $this->assertTrue($zip->open($zip_path));
    $this->assertSame('one', $zip->getFromName('notes.txt'));
    $this->assertSame('two', $zip->getFromName('notes-2.txt'));
    $this->assertSame('three', $zip->getFromName('c.csv'));
    $this->assertSame(3, $zip->numFiles);
    $zip->close();
  }

  /**
   * Tests that unsafe names and media types are neutralised.
   */
  public function testUnsafeNamesAndMediaTypesAreNeutralised(): void {
    $block = AttachmentPacker::pack([
      ['filecontent' => 'x', 'filename' => "..\\evil\x07name.txt", 'filemime' => "text/plain\r\nX: y"],
    ]);
    $this->assertSame('evil_name.txt', $block['file_name']);
    $this->assertSame('application/octet-stream', $block['mime_type']);
  }

  /**
   * Tests that unreadable file is an error.
   */
  public function testUnreadableFileIsAnError(): void {
    $this->expectException(\InvalidArgumentException::class);
    $this->expectExceptionMessage('cannot be read');
    AttachmentPacker::pack([['filepath' => '/nonexistent/sitebeam/file.pdf']]);
  }

  /**
   * Tests that oversized attachment is an error.
   */
  public function testOversizedAttachmentIsAnError(): void {
    $this->expectException(\InvalidArgumentException::class);
    $this->expectExceptionMessage('larger than the API accepts');
    AttachmentPacker::pack([
      ['filecontent' => str_repeat('a', Contract::LIMIT_ATTACHMENT_BYTES + 1), 'filename' => 'big.bin'],
    ]);
  }

  /**
   * Tests that a file over the limit is refused by its size, never read.
   */
  public function testOversizedFileIsRefusedBeforeItIsRead(): void {
    OversizedFileStream::register();
    try {
      AttachmentPacker::pack([['filepath' => OversizedFileStream::SCHEME . '://big.iso']]);
      $this->fail('An attachment over the limit was accepted.');
    }
    catch (AttachmentTooLargeException $e) {
      $this->assertStringContainsString('"big.iso" is larger than the API accepts', $e->getMessage());
    }
    finally {
      stream_wrapper_unregister(OversizedFileStream::SCHEME);
    }
    $this->assertSame(0, OversizedFileStream::$opened);
  }

  /**
   * A temporary file holding the content.
   */
  private function tempFile(string $content): string {
    $path = tempnam(sys_get_temp_dir(), 'sitebeam-test');
    file_put_contents($path, $content);
    return $this->tempFiles[] = $path;
  }

}
