<?php
/**
 * An attachment over the API's limit is refused by its size on disk, before it is read (issue #30, item 7): a file
 * of gigabytes must not fill the memory of the request that mails it.
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use PHPUnit\Framework\TestCase;
use Sitebeam\Contract;
use Sitebeam\Mail\Attachment_Packer;

final class Attachment_Size_Test extends TestCase {

	/** @var string */
	private $path;

	protected function setUp(): void {
		parent::setUp();
		// Sparse: four times the limit on paper, no disk written.
		$this->path = (string) tempnam( get_temp_dir(), 'sitebeam-big' );
		$file       = fopen( $this->path, 'r+' ); // phpcs:ignore WordPress.WP.AlternativeFunctions -- a test fixture.
		ftruncate( $file, 4 * Contract::LIMIT_ATTACHMENT_BYTES );
		fclose( $file ); // phpcs:ignore WordPress.WP.AlternativeFunctions
	}

	protected function tearDown(): void {
		wp_delete_file( $this->path );
		parent::tearDown();
	}

	public function test_a_file_over_the_limit_is_refused_without_being_read() {
		memory_reset_peak_usage();
		$before = memory_get_peak_usage();
		$result = Attachment_Packer::pack( array( 'report.pdf' => $this->path ) );
		$grown  = memory_get_peak_usage() - $before;
		$this->assertWPError( $result );
		$this->assertSame( 'sitebeam_attachment_too_large', $result->get_error_code() );
		$this->assertStringContainsString( 'report.pdf', $result->get_error_message() );
		$this->assertLessThan( Contract::LIMIT_ATTACHMENT_BYTES / 10, $grown, "the request's memory grew by $grown bytes" );
	}

	public function test_a_file_under_the_limit_is_sent_as_it_is() {
		$small = (string) tempnam( get_temp_dir(), 'sitebeam-small' );
		file_put_contents( $small, 'hello' ); // phpcs:ignore WordPress.WP.AlternativeFunctions -- a test fixture.
		try {
			$block = Attachment_Packer::pack( array( 'note.txt' => $small ) );
			$this->assertSame( base64_encode( 'hello' ), $block[ Contract::ATTACHMENT_FIELD_B64 ] ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions
		} finally {
			wp_delete_file( $small );
		}
	}

	/**
	 * @param mixed $actual A value.
	 */
	private function assertWPError( $actual ) {
		$this->assertInstanceOf( \WP_Error::class, $actual );
	}
}
