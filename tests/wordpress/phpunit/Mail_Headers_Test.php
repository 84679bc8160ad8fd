<?php
/**
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use PHPUnit\Framework\TestCase;
use Sitebeam\Mail\Mail_Headers;

final class Mail_Headers_Test extends TestCase {

	public function test_string_headers_with_crlf_folding_and_any_case() {
		$headers = Mail_Headers::parse( "FROM: Site <site@example.com>\r\ncc: a@example.com,\r\n b@example.com\r\nBCC: hidden@example.com\r\nReply-To: reply@example.com\r\nContent-Type: text/html; charset=\"ISO-8859-1\"\r\nX-Custom: ignored" );
		$this->assertSame( 'Site <site@example.com>', $headers->from );
		$this->assertSame( array( 'a@example.com, b@example.com' ), $headers->cc );
		$this->assertSame( array( 'hidden@example.com' ), $headers->bcc );
		$this->assertSame( array( 'reply@example.com' ), $headers->reply_to );
		$this->assertSame( 'text/html', $headers->content_type );
		$this->assertSame( 'ISO-8859-1', $headers->charset );
	}

	public function test_array_headers_accumulate_repeated_cc() {
		$headers = Mail_Headers::parse( array( 'Cc: one@example.com', 'Cc: two@example.com', 'not a header' ) );
		$this->assertSame( array( 'one@example.com', 'two@example.com' ), $headers->cc );
		$this->assertSame( '', $headers->content_type );
	}

	public function test_without_recipients_keeps_every_other_header() {
		$this->assertSame(
			array( 'From: site@example.com', 'Content-Type: text/html' ),
			Mail_Headers::without_recipients( "From: site@example.com\nCc: a@example.com\nbcc: b@example.com\nContent-Type: text/html" )
		);
	}
}
