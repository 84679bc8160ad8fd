<?php
/**
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use PHPUnit\Framework\TestCase;
use Sitebeam\Mail\Address_List;

final class Address_List_Test extends TestCase {

	public function test_comma_list_with_quoted_names_holding_commas() {
		$parsed = Address_List::parse( '"Doe, Jane" <jane@example.com>, bob@example.com ,Carl <carl@example.com>' );
		$this->assertSame(
			array(
				array(
					'address' => 'jane@example.com',
					'name'    => 'Doe, Jane',
				),
				array(
					'address' => 'bob@example.com',
					'name'    => '',
				),
				array(
					'address' => 'carl@example.com',
					'name'    => 'Carl',
				),
			),
			$parsed
		);
	}

	public function test_array_of_lists_and_empty_entries() {
		$parsed = Address_List::parse( array( 'a@example.com, ', 'B <b@example.com>', '' ) );
		$this->assertSame( array( 'a@example.com', 'b@example.com' ), array_column( $parsed, 'address' ) );
	}

	public function test_invalid_address_is_an_error_naming_it() {
		$parsed = Address_List::parse( 'ok@example.com, not-an-address' );
		$this->assertWPError( $parsed );
		$this->assertStringContainsString( 'not-an-address', $parsed->get_error_message() );
	}

	public function test_line_break_injection_is_refused() {
		$this->assertWPError( Address_List::parse_one( "victim@example.com\r\nBcc: spam@example.com" ) );
		$this->assertWPError( Address_List::parse_one( "Name\r\nBcc: x@example.com <a@example.com>" ) );
	}

	/**
	 * @param mixed $value Anything.
	 */
	private function assertWPError( $value ) {
		$this->assertInstanceOf( \WP_Error::class, $value );
	}
}
